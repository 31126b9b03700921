// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestChangedPointers(t *testing.T) {
	for _, tc := range []struct {
		name, before, after string
		max                 int
		want                []string
		more                int
	}{
		{name: "same", before: `{"a":1}`, after: `{"a":1}`, max: 8},
		{name: "changed", before: `{"spec":{"replicas":1}}`, after: `{"spec":{"replicas":3}}`, max: 8, want: []string{"/spec/replicas"}},
		{name: "added and removed", before: `{"a":1,"b":2}`, after: `{"b":2,"c":{"d":1}}`, max: 8, want: []string{"/a", "/c"}},
		{name: "list item", before: `{"l":[{"i":"x"},{"i":"y"}]}`, after: `{"l":[{"i":"x"},{"i":"z"}]}`, max: 8, want: []string{"/l/1/i"}},
		{name: "list length", before: `{"l":[1]}`, after: `{"l":[1,2]}`, max: 8, want: []string{"/l"}},
		{name: "type change", before: `{"a":{"b":1}}`, after: `{"a":[1]}`, max: 8, want: []string{"/a"}},
		{name: "escaped", before: `{"m":{"a/b~c":"1"}}`, after: `{"m":{"a/b~c":"2"}}`, max: 8, want: []string{"/m/a~1b~0c"}},
		{name: "capped", before: `{"a":1,"b":1,"c":1}`, after: `{"a":2,"b":2,"c":2}`, max: 2, want: []string{"/a", "/b"}, more: 1},
		{name: "not json", before: `{`, after: `{}`, max: 8, want: []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, more := ChangedPointers([]byte(tc.before), []byte(tc.after), tc.max)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.more, more)
		})
	}
}
