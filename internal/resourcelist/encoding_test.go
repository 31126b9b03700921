// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package resourcelist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNormalize: what Normalize strips, what it records, and that Apply
// restores the input's bytes when every line ended alike.
func TestNormalize(t *testing.T) {
	const lf = "a: 1\nb: 2\n"
	for name, c := range map[string]struct {
		in, out string
		enc     Encoding
		restore bool // Apply(out) gives in back
	}{
		"LF":             {in: lf, out: lf, restore: true},
		"BOM":            {in: "\xef\xbb\xbf" + lf, out: lf, enc: Encoding{bom: true}, restore: true},
		"CRLF":           {in: "a: 1\r\nb: 2\r\n", out: lf, enc: Encoding{crlf: true}, restore: true},
		"BOM and CRLF":   {in: "\xef\xbb\xbfa: 1\r\nb: 2\r\n", out: lf, enc: Encoding{bom: true, crlf: true}, restore: true},
		"no final EOL":   {in: "a: 1\r\nb: 2", out: "a: 1\nb: 2", enc: Encoding{crlf: true}, restore: true},
		"mixed":          {in: "a: 1\r\nb: 2\n", out: lf},
		"a lone CR":      {in: "a: 1\rb: 2\n", out: "a: 1\rb: 2\n", restore: true},
		"BOM after ---":  {in: "---\n\xef\xbb\xbf" + lf, out: "---\n" + lf},
		"BOM inside":     {in: "a: \xef\xbb\xbf\n", out: "a: \xef\xbb\xbf\n", restore: true},
		"empty":          {in: "", out: "", restore: true},
		"only a BOM":     {in: "\xef\xbb\xbf", out: "", enc: Encoding{bom: true}, restore: true},
		"CRLF after ---": {in: "---\r\n\xef\xbb\xbfa: 1\r\n", out: "---\na: 1\n", enc: Encoding{crlf: true}},
	} {
		t.Run(name, func(t *testing.T) {
			out, enc := Normalize([]byte(c.in))
			assert.Equal(t, c.out, string(out))
			assert.Equal(t, c.enc, enc)
			back := string(enc.Apply(out))
			if c.restore {
				assert.Equal(t, c.in, back, "Apply restores the input")
			}
			again, enc2 := Normalize([]byte(back))
			assert.Equal(t, c.out, string(again), "what Apply writes reads as the same text")
			assert.Equal(t, c.enc, enc2)
		})
	}
}

// TestNormalizeKeepsPlainInput: an input without a byte order mark or
// CRLF is returned as it is, not copied (a copy of a large input costs a
// pause of the whole process; see readInput).
func TestNormalizeKeepsPlainInput(t *testing.T) {
	in := []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n")
	out, enc := Normalize(in)
	assert.Equal(t, Encoding{}, enc)
	require.NotEmpty(t, out)
	assert.Same(t, &in[0], &out[0])
}

// TestApplyAddsToOutput: Apply encodes the whole output, the lines the
// function wrote included.
func TestApplyAddsToOutput(t *testing.T) {
	assert.Equal(t, "\xef\xbb\xbfitems: []\r\nresults:\r\n- x\r\n", string(Encoding{bom: true, crlf: true}.Apply([]byte("items: []\nresults:\n- x\n"))))
	assert.Equal(t, "items: []\n", string(Encoding{}.Apply([]byte("items: []\n"))))
}
