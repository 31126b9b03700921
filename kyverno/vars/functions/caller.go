// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"sort"

	gojmespath "github.com/kyverno/go-jmespath"
)

var (
	tString = gojmespath.JpString
	tNumber = gojmespath.JpNumber
	tArray  = gojmespath.JpArray
	tObject = gojmespath.JpObject
	tAny    = gojmespath.JpAny
)

func arg(types ...gojmespath.JpType) gojmespath.ArgSpec {
	return gojmespath.ArgSpec{Types: types}
}

func fn(name string, h gojmespath.JpFunction, args ...gojmespath.ArgSpec) gojmespath.FunctionEntry {
	return gojmespath.FunctionEntry{Name: name, Arguments: args, Handler: h}
}

// entries declares every Kyverno function with the argument types of
// pkg/engine/jmespath/functions.go GetFunctions.
func entries() []gojmespath.FunctionEntry {
	str, num, strOrNum := arg(tString), arg(tNumber), arg(tString, tNumber)
	return []gojmespath.FunctionEntry{
		fn("compare", compare, str, str),
		fn("equal_fold", equalFold, str, str),
		fn("replace", replace, str, str, str, num),
		fn("replace_all", replaceAll, str, str, str),
		fn("to_upper", toUpper, str),
		fn("to_lower", toLower, str),
		fn("trim", trim, str, str),
		fn("trim_prefix", trimPrefix, str, str),
		fn("split", split, str, str),
		fn("regex_replace_all", regexReplaceAll, str, strOrNum, strOrNum),
		fn("regex_replace_all_literal", regexReplaceAllLiteral, str, strOrNum, strOrNum),
		fn("regex_match", regexMatch, str, strOrNum),
		fn("pattern_match", patternMatch, str, strOrNum),
		fn("label_match", labelMatch, arg(tObject), arg(tObject)),
		fn("to_boolean", toBoolean, str),
		fn("add", add, arg(tAny), arg(tAny)),
		fn("sum", sum, arg(tArray)),
		fn("subtract", subtract, arg(tAny), arg(tAny)),
		fn("multiply", multiply, arg(tAny), arg(tAny)),
		fn("divide", divide, arg(tAny), arg(tAny)),
		fn("modulo", modulo, arg(tAny), arg(tAny)),
		fn("round", round, num, num),
		fn("base64_decode", base64Decode, str),
		fn("base64_encode", base64Encode, str),
		fn("time_since", timeSince, str, str, str),
		fn("time_now", timeNow),
		fn("time_now_utc", timeNowUTC),
		fn("path_canonicalize", pathCanonicalize, str),
		fn("truncate", truncate, str, num),
		fn("semver_compare", semverCompare, str, str),
		fn("parse_json", parseJSON, str),
		fn("parse_yaml", parseYAML, str),
		fn("lookup", lookup, arg(tObject, tArray), strOrNum),
		fn("items", items, arg(tObject, tArray), str, str),
		fn("object_from_lists", objectFromLists, arg(tArray), arg(tArray)),
		fn("random", unsupported("random", "its output is random, so a render would not be reproducible"), str),
		fn("x509_decode", unsupported("x509_decode", "it is not implemented by this offline renderer"), str),
		fn("time_to_cron", timeToCron, str),
		fn("time_add", timeAdd, str, str),
		fn("time_parse", timeParse, str, str),
		fn("time_utc", timeUTC, str),
		fn("time_diff", timeDiff, str, str),
		fn("time_before", timeBefore, str, str),
		fn("time_after", timeAfter, str, str),
		fn("time_between", timeBetween, str, str, str),
		fn("time_truncate", timeTruncate, str, str),
		fn("image_normalize", imageNormalize, str),
		fn("is_external_url", isExternalURL, str),
		fn("sha256", sha256Hex, str),
		fn("sha1", sha1Hex, str),
		fn("md5", md5Hex, str),
	}
}

// NewCaller returns a function caller holding the standard JMESPath
// functions and Kyverno's (Kyverno's sum replaces the standard one).
func NewCaller() *gojmespath.FunctionCaller {
	c := gojmespath.NewFunctionCaller()
	for _, e := range entries() {
		c.Register(e)
	}
	return c
}

// Names lists Kyverno's custom function names, sorted.
func Names() []string {
	var names []string
	for _, e := range entries() {
		names = append(names, e.Name)
	}
	sort.Strings(names)
	return names
}

// NonDeterministic holds the functions whose result depends on the clock,
// randomness or the network rather than on the policy and the resource.
var NonDeterministic = map[string]bool{
	"random":          true,
	"time_now":        true,
	"time_now_utc":    true,
	"time_since":      true,
	"is_external_url": true,
}
