// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// checkPatch reproduces the check evanphx's DecodePatch runs on the whole
// patch before Karmada applies any of it (validatePatch in json-patch
// v5.9.11): an op other than add, remove, replace, move, copy or test, or a
// move or copy without "from" (Karmada's ops never have one), fails with
// `invalid operation {"op":…,"path":…,"value":…}: <reason>`.
// yamlpatch.Patch.Apply behaves like evanphx's Patch.Apply, which does not
// run this check.
func checkPatch(p yamlpatch.Patch) error {
	for _, op := range p {
		var reason error
		switch op.Op {
		case "add", "remove", "replace", "test":
		case "move", "copy":
			if op.From == "" {
				reason = errors.New("failed to decode 'from': operation, missing from field: missing value")
			}
		default:
			reason = errors.New("unsupported operation")
		}
		if reason == nil {
			continue
		}
		value, err := valueJSON(op.Value)
		if err != nil {
			return fmt.Errorf("invalid operation: %w", reason)
		}
		data, err := json.Marshal(jsonOp{Op: op.Op, Path: op.Path, Value: value})
		if err != nil {
			return fmt.Errorf("invalid operation: %w", reason)
		}
		return fmt.Errorf("invalid operation %s: %w", data, reason)
	}
	return nil
}
