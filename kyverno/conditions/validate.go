// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/apply-overrides/apply-overrides/kyverno/internal/jsonvalue"
)

// ValidationError is a policy-validation error for a preconditions value.
type ValidationError struct {
	// Path is the given path plus upstream's suffix, e.g.
	// "validate.preconditions.any[0]." or "validate.preconditions[1].value: FOO".
	Path string
	// Msg is upstream's message, e.g. "entered value of `key`, `value` or
	// `operator` is missing or misspelled".
	Msg string
}

func (e *ValidationError) Error() string {
	return e.Path + ": " + e.Msg
}

const (
	msgMissing         = "entered value of `key`, `value` or `operator` is missing or misspelled"
	operationValues    = "[CREATE, UPDATE, DELETE, CONNECT]"
	requestOperationVK = "{{request.operation}}"
)

// Validate checks a rule's raw preconditions value as upstream's policy
// validation does (validateConditions, then validateRawJSONConditionOperator)
// and returns the first problem as a [*ValidationError]:
//   - a condition without key, value or operator;
//   - a key "{{request.operation}}" (spaces ignored) whose value is not
//     CREATE, UPDATE, DELETE or CONNECT (a string value may instead be one
//     "{{...}}" variable), or a list of those strings;
//   - an operator that is not one of [Operators] (case-sensitive).
//
// Every condition is checked for the first two before any operator is.
// path is the prefix of the reported path: upstream reports paths relative to
// spec.rules[i] under "validate.preconditions" (even for mutate rules), so
// passing that reproduces upstream's text, "path: spec.rules[0]." + err. For
// the {any, all} form, upstream reports an invalid operator in `all` under
// "any[i]"; this is reproduced. A value that cannot be parsed at all is
// reported as an error at path.
func Validate(preconditions any, path string) error {
	c, err := Parse(preconditions)
	if err != nil {
		return &ValidationError{Path: path, Msg: err.Error()}
	}
	if c.Legacy {
		for i, cond := range c.List {
			if sub, msg := checkCondition(cond); msg != "" {
				return &ValidationError{Path: fmt.Sprintf("%s[%d].%s", path, i, sub), Msg: msg}
			}
		}
		for i, cond := range c.List {
			if !IsValidOperator(cond.Operator) {
				return &ValidationError{Path: fmt.Sprintf("%s[%d].", path, i), Msg: invalidOperatorMsg()}
			}
		}
		return nil
	}
	for _, block := range []struct {
		name  string
		conds []Condition
	}{{"any", c.Any}, {"all", c.All}} {
		for i, cond := range block.conds {
			if sub, msg := checkCondition(cond); msg != "" {
				return &ValidationError{Path: fmt.Sprintf("%s.%s[%d].%s", path, block.name, i, sub), Msg: msg}
			}
		}
	}
	return checkOperators(c, path)
}

// ValidateForEach checks a foreach entry's raw preconditions value as
// upstream's validateMutationForEach does: only the {any, all} form parses
// (see [ParseForEach]) and only operators are checked (a missing key or value
// is accepted). Upstream's path for mutate.foreach[j] of rule i is
// "spec.rules[i].mutate.foreach.conditions.any[k]." (no foreach index, and
// "mutate.foreach." once more per nesting level), so pass
// "mutate.foreach.conditions" to reproduce it.
func ValidateForEach(preconditions any, path string) error {
	c, err := ParseForEach(preconditions)
	if err != nil {
		return &ValidationError{Path: path, Msg: err.Error()}
	}
	return checkOperators(c, path)
}

// checkOperators reports the first invalid operator of an {any, all} value.
// Upstream labels conditions of the `all` block "any[i]" too.
func checkOperators(c *Conditions, path string) error {
	for _, conds := range [][]Condition{c.Any, c.All} {
		for i, cond := range conds {
			if !IsValidOperator(cond.Operator) {
				return &ValidationError{Path: fmt.Sprintf("%s.any[%d].", path, i), Msg: invalidOperatorMsg()}
			}
		}
	}
	return nil
}

func invalidOperatorMsg() string {
	return fmt.Sprintf("entered value of `operator` is invalid. valid values: %+q", operators)
}

// checkCondition is upstream's validateConditionValues: it returns the path
// suffix and the message of the first problem, or an empty message.
func checkCondition(c Condition) (sub, msg string) {
	if c.Key == nil || c.Value == nil || c.Operator == "" {
		return "", msgMissing
	}
	k, ok := c.Key.(string)
	if !ok || strings.ReplaceAll(k, " ", "") != requestOperationVK {
		return "", ""
	}
	switch v := decodedNumbers(c.Value).(type) {
	case string:
		if len(v) >= 4 && strings.HasPrefix(v, "{{") && strings.HasSuffix(v, "}}") {
			return "", ""
		}
		if !isOperation(v) {
			return "value: " + v, unknownOperationMsg(v)
		}
	case []any:
		for i, item := range v {
			s, ok := item.(string)
			if !ok {
				return fmt.Sprintf("value[%d]", i), fmt.Sprintf("'value[%d]' found to be of the type %T. The provided values are expected to be strings", i, item)
			}
			if !isOperation(s) {
				return fmt.Sprintf("value[%d]", i), unknownOperationMsg(s)
			}
		}
	default:
		return "value", fmt.Sprintf("'value' field found to be of the type %v. The provided value/values are expected to be either in the form of a string or list", reflect.TypeOf(v).Kind())
	}
	return "", ""
}

func isOperation(s string) bool {
	switch s {
	case "CREATE", "UPDATE", "DELETE", "CONNECT":
		return true
	}
	return false
}

func unknownOperationMsg(v string) string {
	return fmt.Sprintf("unknown value '%s' found under the 'value' field. Only the following values are allowed: %s", v, operationValues)
}

// decodedNumbers returns v with every integral number in int64 range
// converted to int64, as Kubernetes' JSON decoder (which upstream uses for
// condition values) produces them; the types show in messages.
func decodedNumbers(v any) any { return jsonvalue.Int64Numbers(v) }
