// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

// The allow-lists of pkg/validation/policy/validate.go (allowedVariables is
// pkg/engine/context ReservedKeys).
var (
	allowedVariables                   = regexp.MustCompile(`request|serviceAccountName|serviceAccountNamespace|element|elementIndex|@|images|image|([a-z_0-9]+\()[^{}]`)
	allowedVariablesBackground         = regexp.MustCompile(`request\.|element|elementIndex|@|images|images\.|image\.|([a-z_0-9]+\()[^{}]`)
	allowedVariablesInTarget           = regexp.MustCompile(`request\.|serviceAccountName|serviceAccountNamespace|element|elementIndex|@|images|images\.|image\.|target\.|([a-z_0-9]+\()[^{}]`)
	allowedVariablesBackgroundInTarget = regexp.MustCompile(`request\.|element|elementIndex|@|images|images\.|image\.|target\.|([a-z_0-9]+\()[^{}]`)
)

// mockContext answers every allowed variable with null and rejects the
// others (pkg/engine/context/mock_context.go), for policy validation.
type mockContext struct {
	re       *regexp.Regexp
	patterns []string
}

// invalidVariableError is returned as it is by substitution.
type invalidVariableError struct {
	variable string
	re       *regexp.Regexp
	patterns []string
}

func (e invalidVariableError) Error() string {
	return fmt.Sprintf("variable %s must match regex \"%s\" or patterns %v", e.variable, e.re.String(), e.patterns)
}

func (m *mockContext) query(q string) (any, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, errors.New("invalid query (nil)")
	}
	if _, err := compile(q); err != nil {
		return nil, fmt.Errorf("invalid JMESPath query %s: %v", q, err)
	}
	q = strings.ReplaceAll(q, `"`, "")
	if m.re.MatchString(q) {
		return nil, nil
	}
	for _, p := range m.patterns {
		if wildcard.Match(p, q) {
			return nil, nil
		}
	}
	return nil, invalidVariableError{variable: q, re: m.re, patterns: m.patterns}
}

// Operation is never DELETE during validation.
func (m *mockContext) Operation() string { return "" }

var _ resolver = (*mockContext)(nil)
