// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package overriders

import (
	"encoding/json"
	"errors"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/apply-overrides/apply-overrides/internal/yamlpatch"
)

// checkPatch is the check Karmada's applyJSONPatch makes before it applies
// any op of a patch: it marshals the ops and decodes them with evanphx's
// jsonpatch.DecodePatch (karmada pkg/util/overridemanager/overridemanager.go
// @f8fdd02, json-patch v5.9.11), which rejects an op other than add, remove,
// replace, move, copy or test, or a move or copy without "from" (Karmada's
// ops never have one), with `invalid operation {"op":…,"path":…,"value":…}:
// <reason>`. yamlpatch.Patch.Apply behaves like evanphx's Patch.Apply,
// which does not run this check.
func checkPatch(p yamlpatch.Patch) error {
	// DecodePatch decodes a value only to see that it is JSON, so the ops
	// with null values pass or fail as the ops themselves do; the values
	// are converted only for the message of a patch it rejects.
	bare := make([]jsonOp, len(p))
	for i, op := range p {
		bare[i] = jsonOp{Op: op.Op, Path: op.Path, Value: jsonNull}
	}
	b, err := json.Marshal(bare)
	if err != nil {
		return err
	}
	_, rejected := jsonpatch.DecodePatch(b)
	if rejected == nil {
		return nil
	}
	if b, err = encodePatch(p); err != nil {
		// evanphx's own words when it cannot marshal the op it rejects.
		return fmt.Errorf("invalid operation: %w", errors.Unwrap(rejected))
	}
	_, err = jsonpatch.DecodePatch(b)
	return err
}

var jsonNull = json.RawMessage("null")
