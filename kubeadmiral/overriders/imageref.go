// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"fmt"

	"github.com/apply-overrides/apply-overrides/internal/imageref"
)

// operateComponent is operateImageComponent.
func operateComponent(old, operator, value string) (string, error) {
	switch operator {
	case opAddIfAbsent:
		if value == "" {
			return "", fmt.Errorf("%s operation needs value", opAddIfAbsent)
		}
		if old != "" {
			return "", fmt.Errorf("%s is not allowed to operate on non-empty value", opAddIfAbsent)
		}
		return value, nil
	case opOverwrite:
		return value, nil
	case opDelete:
		return "", nil
	}
	return "", fmt.Errorf("unsupported operator: %s", operator)
}

// parseImage is upstream's ParseImage (override.Image): unlike Karmada's
// parse it keeps both tag and digest, and nothing is re-validated after the
// operations except the new tag or digest itself.
func parseImage(s string) (imageref.Components, error) { return imageref.Parse(s) }

// rawJSONString reproduces how upstream stores an image patch value:
// fmt.Sprintf("\"%s\"", s) as raw JSON, without escaping. A backslash
// sequence in s is therefore decoded (`a\u0041` becomes "aA"), and a quote
// or control character makes the patch list unmarshalable, which upstream
// only notices when it applies the rule's patches (json.Marshal's error).
func rawJSONString(s string) (string, error) {
	var out string
	raw := `"` + s + `"`
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return "", &ApplyError{Err: fmt.Errorf("json: error calling MarshalJSON for type v1.JSON: %w", err)}
	}
	return out, nil
}

// ApplyError is an error upstream meets not while computing a
// rule's patches but when applying them, so callers should report it
// without the rule's "failed to parse patches from policy ..." prefix, as
// upstream does. Patches returns it unwrapped.
type ApplyError struct{ Err error }

func (e *ApplyError) Error() string { return e.Err.Error() }
func (e *ApplyError) Unwrap() error { return e.Err }
