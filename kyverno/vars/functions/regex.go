// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"errors"
	"regexp"
	"strconv"

	"github.com/apply-overrides/apply-overrides/internal/wildcard"
)

func regexReplaceAll(args []any) (any, error) {
	return regexReplace("regex_replace_all", args, false)
}

func regexReplaceAllLiteral(args []any) (any, error) {
	return regexReplace("regex_replace_all_literal", args, true)
}

func regexReplace(fn string, args []any, literal bool) (any, error) {
	expr, err := argString(fn, args, 0)
	if err != nil {
		return nil, err
	}
	src, err := toString(args[1])
	if err != nil {
		return nil, errArgType(fn, 2, "String or Real")
	}
	repl, err := toString(args[2])
	if err != nil {
		return nil, errArgType(fn, 3, "String or Real")
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, errGeneric(fn, err.Error())
	}
	if literal {
		return string(re.ReplaceAllLiteral([]byte(src), []byte(repl))), nil
	}
	return string(re.ReplaceAll([]byte(src), []byte(repl))), nil
}

func regexMatch(args []any) (any, error) {
	expr, err := argString("regex_match", args, 0)
	if err != nil {
		return nil, err
	}
	src, err := toString(args[1])
	if err != nil {
		return nil, errArgType("regex_match", 2, "String or Real")
	}
	return regexp.MatchString(expr, src)
}

// patternMatch reports its argument errors under regex_match, like upstream.
func patternMatch(args []any) (any, error) {
	pattern, err := argString("regex_match", args, 0)
	if err != nil {
		return nil, err
	}
	src, err := toString(args[1])
	if err != nil {
		return nil, errArgType("regex_match", 2, "String or Real")
	}
	return wildcard.Match(pattern, src), nil
}

// toString is upstream's ifaceToString: numbers are formatted with float32
// precision ('f', -1, 32).
func toString(v any) (string, error) {
	switch t := v.(type) {
	case int:
		return strconv.Itoa(t), nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 32), nil
	case float32:
		return strconv.FormatFloat(float64(t), 'f', -1, 32), nil
	case string:
		return t, nil
	case bool:
		return strconv.FormatBool(t), nil
	}
	return "", errors.New("error, undefined type cast")
}
