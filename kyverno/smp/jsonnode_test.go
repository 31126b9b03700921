// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package smp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// requireParsesLikeYAML checks parseJSON against yaml.Parse on the
// canonical JSON text of v: the same nodes or the same error.
func requireParsesLikeYAML(t *testing.T, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	want, wantErr := yaml.Parse(string(b))
	got, gotErr := parseJSON(b)
	if wantErr != nil {
		require.EqualError(t, gotErr, wantErr.Error(), "%s", b)
		return
	}
	require.NoError(t, gotErr, "%s", b)
	require.Equal(t, want.Document(), got.Document(), "%s", b)
}

func TestParseJSON(t *testing.T) {
	for _, v := range []any{
		map[string]any{},
		map[string]any{"a": "b", "n": []any{}, "m": map[string]any{}},
		map[string]any{"s": "quote \" backslash \\ slash / <>& \b\f\n\r\t \x00 \x1f"},
		map[string]any{"s": "\u2028 \u2029 \ufffd-escaped"},
		map[string]any{"del": "\x7f"},
		map[string]any{"s": "quote \" backslash \\ slash / <>& \b\f\n\r\t \x00 \x1f \x7f é \u2028 \ufffd 😀"},
		map[string]any{"n": []any{0, -1, 1.5, 1e21, 1e-7, -0.0, 123456789012345678, 9223372036854775807, uint64(18446744073709551615), 1e300}},
		map[string]any{"b": []any{true, false, nil}, "k": map[string]any{"~": "null", "<<": "yes", "": ""}},
		json.RawMessage(`{"a":-0,"b":1E5,"c":12345678901234567890123}`),
		json.RawMessage(`{"a":"\ud83d\ude00"}`),
	} {
		requireParsesLikeYAML(t, v)
	}
}

// TestParseJSONOracle compares on every resource and patch of the oracle
// corpora.
func TestParseJSONOracle(t *testing.T) {
	for _, file := range []string{"testdata/oracle.jsonl", "testdata/oracle_random.jsonl", "testdata/oracle_yaml.jsonl"} {
		for _, c := range readOracle(t, file) {
			requireParsesLikeYAML(t, c.Resource)
			requireParsesLikeYAML(t, c.Patch)
		}
	}
}

// FuzzParseJSONMatchesYAML compares parseJSON with yaml.Parse on the
// canonical form of any JSON text.
func FuzzParseJSONMatchesYAML(f *testing.F) {
	f.Add(`{"a":["b",1,-2.5e3,true,null,{}]}`)
	f.Add(`{"s":"\u00e9\n\u2028"}`)
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			t.Skip()
		}
		requireParsesLikeYAML(t, v)
	})
}
