// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"encoding/base64"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/blang/semver/v4"
)

// compare returns a Go int, as upstream does: it JSON-encodes as a number
// but is not equal to a JMESPath number literal inside the same expression.
func compare(args []any) (any, error) {
	a, b, err := twoStrings("compare", args)
	if err != nil {
		return nil, err
	}
	return strings.Compare(a, b), nil
}

func equalFold(args []any) (any, error) {
	a, b, err := twoStrings("equal_fold", args)
	if err != nil {
		return nil, err
	}
	return strings.EqualFold(a, b), nil
}

func replace(args []any) (any, error) {
	s, oldNew, err := strings3("replace", args)
	if err != nil {
		return nil, err
	}
	n, err := argNumber("replace", args, 3)
	if err != nil {
		return nil, err
	}
	return strings.Replace(s, oldNew[0], oldNew[1], toInt(n)), nil
}

func replaceAll(args []any) (any, error) {
	s, oldNew, err := strings3("replace_all", args)
	if err != nil {
		return nil, err
	}
	return strings.ReplaceAll(s, oldNew[0], oldNew[1]), nil
}

func toUpper(args []any) (any, error) {
	s, err := argString("to_upper", args, 0)
	if err != nil {
		return nil, err
	}
	return strings.ToUpper(s), nil
}

func toLower(args []any) (any, error) {
	s, err := argString("to_lower", args, 0)
	if err != nil {
		return nil, err
	}
	return strings.ToLower(s), nil
}

func trim(args []any) (any, error) {
	s, cutset, err := twoStrings("trim", args)
	if err != nil {
		return nil, err
	}
	return strings.Trim(s, cutset), nil
}

func trimPrefix(args []any) (any, error) {
	s, prefix, err := twoStrings("trim_prefix", args)
	if err != nil {
		return nil, err
	}
	return strings.TrimPrefix(s, prefix), nil
}

func split(args []any) (any, error) {
	s, sep, err := twoStrings("split", args)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(s, sep)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}

func toBoolean(args []any) (any, error) {
	s, err := argString("to_boolean", args, 0)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return nil, errGeneric("to_boolean", fmt.Sprintf("lowercase argument must be 'true' or 'false' (provided: '%s')", s))
}

func base64Decode(args []any) (any, error) {
	s, err := argString("", args, 0)
	if err != nil {
		return nil, err
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

func base64Encode(args []any) (any, error) {
	s, err := argString("", args, 0)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
}

func pathCanonicalize(args []any) (any, error) {
	s, err := argString("path_canonicalize", args, 0)
	if err != nil {
		return nil, err
	}
	return filepath.Join(s), nil
}

// truncate cuts to a number of runes; like upstream (aquilax/truncate with
// int(length) on amd64) a length too large for an int yields "".
func truncate(args []any) (any, error) {
	s, err := argString("truncate", args, 0)
	if err != nil {
		return nil, err
	}
	length, err := argNumber("truncate", args, 1)
	if err != nil {
		return nil, err
	}
	n := toInt(math.Max(length, 0))
	runes := []rune(s)
	switch {
	case n < 1:
		return "", nil
	case n >= len(runes):
		return s, nil
	}
	return string(runes[:n]), nil
}

// semverCompare treats an unparsable version as 0.0.0, as upstream does.
func semverCompare(args []any) (any, error) {
	v, r, err := twoStrings("semver_compare", args)
	if err != nil {
		return nil, err
	}
	version, perr := semver.Parse(v)
	if perr != nil {
		version = semver.Version{}
	}
	expected, err := semver.ParseRange(r)
	if err != nil {
		return nil, err
	}
	return expected(version), nil
}

func twoStrings(fn string, args []any) (string, string, error) {
	a, err := argString(fn, args, 0)
	if err != nil {
		return "", "", err
	}
	b, err := argString(fn, args, 1)
	if err != nil {
		return "", "", err
	}
	return a, b, nil
}

func strings3(fn string, args []any) (string, [2]string, error) {
	s, err := argString(fn, args, 0)
	if err != nil {
		return "", [2]string{}, err
	}
	o, err := argString(fn, args, 1)
	if err != nil {
		return "", [2]string{}, err
	}
	n, err := argString(fn, args, 2)
	if err != nil {
		return "", [2]string{}, err
	}
	return s, [2]string{o, n}, nil
}
