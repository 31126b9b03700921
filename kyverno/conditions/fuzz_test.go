// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzOperate checks that no key, operator and value (as JSON) panics.
func FuzzOperate(f *testing.F) {
	f.Add(`"1Gi"`, "GreaterThan", `"512Mi-2Gi"`)
	f.Add(`["a", 1]`, "In", `["a"]`)
	f.Add(`["-5"]`, "AnyNotIn", `"-5-10"`)
	f.Add(`1e300`, "DurationLessThan", `"1h"`)
	f.Add(`"1.2.3"`, "LessThan", `"1.2.3-rc.1"`)
	f.Fuzz(func(t *testing.T, key, op, value string) {
		var k, v any
		if json.Unmarshal([]byte(key), &k) != nil || json.Unmarshal([]byte(value), &v) != nil {
			return
		}
		for _, o := range append([]string{op}, operators...) {
			if _, err := Operate(k, o, v); err != nil {
				var unknown *UnknownOperatorError
				if !errors.As(err, &unknown) && !strings.Contains(err.Error(), "not a string") {
					t.Fatalf("Operate(%v, %s, %v): unexpected error %v", k, o, v, err)
				}
			}
		}
		err := Validate(map[string]any{"all": []any{map[string]any{"key": k, "operator": op, "value": v}}}, "p")
		var ve *ValidationError
		if err != nil && !errors.As(err, &ve) {
			t.Fatalf("Validate: unexpected error type %T", err)
		}
	})
}
