// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"fmt"
	"slices"
	"strings"
)

// Operator names as Kyverno spells them (api/kyverno/v1 ConditionOperators),
// in the order upstream declares them.
const (
	OpEqual                       = "Equal"
	OpEquals                      = "Equals"
	OpNotEqual                    = "NotEqual"
	OpNotEquals                   = "NotEquals"
	OpIn                          = "In"
	OpAnyIn                       = "AnyIn"
	OpAllIn                       = "AllIn"
	OpNotIn                       = "NotIn"
	OpAnyNotIn                    = "AnyNotIn"
	OpAllNotIn                    = "AllNotIn"
	OpGreaterThanOrEquals         = "GreaterThanOrEquals"
	OpGreaterThan                 = "GreaterThan"
	OpLessThanOrEquals            = "LessThanOrEquals"
	OpLessThan                    = "LessThan"
	OpDurationGreaterThanOrEquals = "DurationGreaterThanOrEquals"
	OpDurationGreaterThan         = "DurationGreaterThan"
	OpDurationLessThanOrEquals    = "DurationLessThanOrEquals"
	OpDurationLessThan            = "DurationLessThan"
)

// operators lists every valid operator name, e.g. "AnyIn".
var operators = []string{
	OpEqual, OpEquals, OpNotEqual, OpNotEquals, OpIn, OpAnyIn, OpAllIn, OpNotIn, OpAnyNotIn, OpAllNotIn,
	OpGreaterThanOrEquals, OpGreaterThan, OpLessThanOrEquals, OpLessThan,
	OpDurationGreaterThanOrEquals, OpDurationGreaterThan, OpDurationLessThanOrEquals, OpDurationLessThan,
}

// Operators returns the valid operator names in upstream's declaration order.
func Operators() []string {
	return slices.Clone(operators)
}

// IsValidOperator reports whether op is a valid operator name. Like policy
// validation upstream, the check is case-sensitive ("equals" is invalid),
// although evaluation looks operators up case-insensitively.
func IsValidOperator(op string) bool {
	return slices.Contains(operators, op)
}

// IsDeprecatedOperator reports whether op is In or NotIn, which upstream
// accepts with a warning (use AnyIn/AllIn or AnyNotIn/AllNotIn instead).
func IsDeprecatedOperator(op string) bool {
	return op == OpIn || op == OpNotIn
}

// UnknownOperatorError is returned by [Operate] for an operator name that is
// not one of [Operators], compared case-insensitively.
type UnknownOperatorError struct {
	// Operator is the name as written in the policy, e.g. "Contains".
	Operator string
}

func (e *UnknownOperatorError) Error() string {
	return fmt.Sprintf("unknown operator %q", e.Operator)
}

// Operate evaluates one condition on an already-substituted key and value,
// as upstream's operator handlers do. The operator is looked up
// case-insensitively; the ordering operators (GreaterThan, ...,
// DurationLessThan) then compare against the exact spelling, so a
// differently-cased ordering operator is always false, as upstream.
//
// It returns an [*UnknownOperatorError] for an unknown operator, and an
// error where upstream panics: In or NotIn with a list key holding a
// non-string item.
func Operate(key any, operator string, value any) (bool, error) {
	switch strings.ToLower(operator) {
	case "equal", "equals":
		return equals(key, value), nil
	case "notequal", "notequals":
		return notEquals(key, value), nil
	case "in":
		return deprecatedIn(key, value, false)
	case "notin":
		return deprecatedIn(key, value, true)
	case "anyin":
		return memberAny(key, value, false), nil
	case "anynotin":
		return memberAny(key, value, true), nil
	case "allin":
		return memberAll(key, value, false), nil
	case "allnotin":
		return memberAll(key, value, true), nil
	case "greaterthanorequals", "greaterthan", "lessthanorequals", "lessthan":
		return ordered(key, operator, value), nil
	case "durationgreaterthanorequals", "durationgreaterthan", "durationlessthanorequals", "durationlessthan":
		return durationOrdered(key, operator, value), nil
	}
	return false, &UnknownOperatorError{Operator: operator}
}
