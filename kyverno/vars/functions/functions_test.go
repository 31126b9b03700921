// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"encoding/json"
	"errors"
	"net"
	"testing"
	"time"

	gojmespath "github.com/kyverno/go-jmespath"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func search(t *testing.T, expr, data string) (any, error) {
	t.Helper()
	if data == "" {
		data = "{}"
	}
	var d any
	require.NoError(t, json.Unmarshal([]byte(data), &d))
	return gojmespath.Search(expr, d, gojmespath.WithFunctionCaller(NewCaller()))
}

type fnCase struct {
	expr, data string
	want       any
	err        string
}

func runCases(t *testing.T, cases map[string]fnCase) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := search(t, tc.expr, tc.data)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestStringFunctions(t *testing.T) {
	runCases(t, map[string]fnCase{
		"compare returns a Go int":      {expr: "compare('a', 'b')", want: -1},
		"compare int is not a number":   {expr: "compare('a', 'a') == `0`", want: false},
		"compare bad type":              {expr: "compare('a', `1`)", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
		"compare arity":                 {expr: "compare('a')", err: "incorrect number of args"},
		"equal_fold":                    {expr: "equal_fold('Go', 'GO')", want: true},
		"equal_fold bad type":           {expr: "equal_fold('Go', `null`)", err: `Invalid type for: <nil>, expected: []jmespath.JpType{"string"}`},
		"replace n":                     {expr: "replace('aaaa', 'a', 'b', `2`)", want: "bbaa"},
		"replace negative is all":       {expr: "replace('aaaa', 'a', 'b', `-1`)", want: "bbbb"},
		"replace fraction truncates":    {expr: "replace('aaaa', 'a', 'b', `1.9`)", want: "baaa"},
		"replace count must be number":  {expr: "replace('aaaa', 'a', 'b', '2')", err: `Invalid type for: 2, expected: []jmespath.JpType{"number"}`},
		"replace_all":                   {expr: "replace_all('a.b.c', '.', '/')", want: "a/b/c"},
		"replace_all arity":             {expr: "replace_all('a', 'b')", err: "incorrect number of args"},
		"to_upper":                      {expr: "to_upper('abc')", want: "ABC"},
		"to_upper bad type":             {expr: "to_upper(`[]`)", err: `Invalid type for: [], expected: []jmespath.JpType{"string"}`},
		"to_lower":                      {expr: "to_lower('ABC')", want: "abc"},
		"to_lower bad type":             {expr: "to_lower(`true`)", err: `Invalid type for: true, expected: []jmespath.JpType{"string"}`},
		"trim cutset":                   {expr: "trim('--a-b--', '-')", want: "a-b"},
		"trim arity":                    {expr: "trim('a')", err: "incorrect number of args"},
		"trim_prefix":                   {expr: "trim_prefix('v1.2', 'v')", want: "1.2"},
		"trim_prefix absent":            {expr: "trim_prefix('1.2', 'v')", want: "1.2"},
		"trim_prefix bad type":          {expr: "trim_prefix(`1`, 'v')", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
		"split":                         {expr: "split('a,b,,c', ',')", want: []any{"a", "b", "", "c"}},
		"split bad type":                {expr: "split('a', `{}`)", err: `Invalid type for: map[], expected: []jmespath.JpType{"string"}`},
		"to_boolean":                    {expr: "to_boolean('TruE')", want: true},
		"to_boolean false":              {expr: "to_boolean('faLSE')", want: false},
		"to_boolean other":              {expr: "to_boolean('yes')", err: "JMESPath function 'to_boolean': lowercase argument must be 'true' or 'false' (provided: 'yes')"},
		"base64_encode":                 {expr: "base64_encode('hello')", want: "aGVsbG8="},
		"base64_encode bad type":        {expr: "base64_encode(`1`)", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
		"base64_decode":                 {expr: "base64_decode('aGVsbG8=')", want: "hello"},
		"base64_decode invalid":         {expr: "base64_decode('a')", err: "illegal base64 data at input byte 0"},
		"path_canonicalize":             {expr: "path_canonicalize('//a/./b/../c/')", want: "/a/c"},
		"path_canonicalize bad type":    {expr: "path_canonicalize(`null`)", err: `Invalid type for: <nil>, expected: []jmespath.JpType{"string"}`},
		"truncate runes":                {expr: "truncate('héllo', `2`)", want: "hé"},
		"truncate longer":               {expr: "truncate('abc', `9`)", want: "abc"},
		"truncate negative is empty":    {expr: "truncate('abc', `-1`)", want: ""},
		"truncate huge is empty":        {expr: "truncate('abc', `1e30`)", want: ""},
		"truncate length type":          {expr: "truncate('abc', '2')", err: `Invalid type for: 2, expected: []jmespath.JpType{"number"}`},
		"semver_compare":                {expr: "semver_compare('1.2.3', '>=1.2.0')", want: true},
		"semver_compare false":          {expr: "semver_compare('1.2.3', '<1.0.0')", want: false},
		"semver_compare bad version":    {expr: "semver_compare('x', '<0.0.1')", want: true},
		"semver_compare bad range":      {expr: "semver_compare('1.0.0', 'x')", err: "Last element in range is '||'"},
		"regex_replace_all":             {expr: "regex_replace_all('([0-9])([0-9])', 'days_37', '${1}0')", want: "days_30"},
		"regex_replace_all number src":  {expr: "regex_replace_all('5', `1.5`, 'x')", want: "1.x"},
		"regex_replace_all float32":     {expr: "regex_replace_all('^', `16777217`, '')", want: "16777216"},
		"regex_replace_all bad regex":   {expr: "regex_replace_all('(', 'a', 'b')", err: "JMESPath function 'regex_replace_all': error parsing regexp: missing closing ): `(`"},
		"regex_replace_all bad src":     {expr: "regex_replace_all('a', `true`, 'b')", err: `Invalid type for: true, expected: []jmespath.JpType{"string", "number"}`},
		"regex_replace_all_literal":     {expr: "regex_replace_all_literal('a(.)', 'abac', '$1')", want: "$1$1"},
		"regex_replace_all_literal bad": {expr: "regex_replace_all_literal('[', 'a', 'b')", err: "JMESPath function 'regex_replace_all_literal': error parsing regexp: missing closing ]: `[`"},
		"regex_match":                   {expr: "regex_match('^[0-9]+$', `123`)", want: true},
		"regex_match no":                {expr: "regex_match('^a', 'ba')", want: false},
		"regex_match bad regex":         {expr: "regex_match('(', 'a')", err: "error parsing regexp: missing closing ): `(`"},
		"pattern_match":                 {expr: "pattern_match('ng?nx*', 'nginx:1.2')", want: true},
		"pattern_match no":              {expr: "pattern_match('a?', 'a')", want: false},
		"pattern_match bad type":        {expr: "pattern_match(`1`, 'a')", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
	})
}

func TestArithmeticFunctions(t *testing.T) {
	runCases(t, map[string]fnCase{
		"add numbers":              {expr: "add(`1`, `2.5`)", want: 3.5},
		"add quantities":           {expr: "add('0', '1')", want: "1"},
		"add quantity units":       {expr: "add('1Gi', '512Mi')", want: "1536Mi"},
		"add durations":            {expr: "add('1h', '30m0s')", want: "1h30m0s"},
		"add milli quantities":     {expr: "add('1m', '1m')", want: "2m"},
		"add mismatch":             {expr: "add('1Gi', `1`)", err: "JMESPath function 'add': Types mismatch"},
		"add invalid operand":      {expr: "add('abc', `1`)", err: "JMESPath function 'add': invalid operand"},
		"add null operand":         {expr: "add(`null`, `1`)", err: "JMESPath function 'add': invalid operand"},
		"sum numbers":              {expr: "sum(`[1, 2, 3]`)", want: 6.0},
		"sum quantities":           {expr: "sum(['1Gi', '1Gi'])", want: "2Gi"},
		"sum empty":                {expr: "sum(`[]`)", err: "JMESPath function 'sum': at least one element in the array is required"},
		"sum mismatch":             {expr: "sum(['1', `1`])", err: "JMESPath function 'sum': Types mismatch"},
		"sum of items is mismatch": {expr: "sum(items(`{\"a\":1}`, 'k', 'v'))", err: "JMESPath function 'sum': Types mismatch"},
		"sum not array":            {expr: "sum('a')", err: `Invalid type for: a, expected: []jmespath.JpType{"array"}`},
		"subtract numbers":         {expr: "subtract(`5`, `2`)", want: 3.0},
		"subtract quantities":      {expr: "subtract('1Gi', '512Mi')", want: "512Mi"},
		"subtract durations":       {expr: "subtract('1h', '1m0s')", want: "59m0s"},
		"1m is a quantity":         {expr: "subtract('1h', '1m')", err: "JMESPath function 'subtract': Types mismatch"},
		"subtract mismatch":        {expr: "subtract('1h', `1`)", err: "JMESPath function 'subtract': Types mismatch"},
		"multiply numbers":         {expr: "multiply(`3`, `4`)", want: 12.0},
		"multiply quantity":        {expr: "multiply('100m', `3`)", want: "300m"},
		"multiply scalar first":    {expr: "multiply(`2`, '1Gi')", want: "2Gi"},
		"multiply duration":        {expr: "multiply('1h', `1.5`)", want: "1h30m0s"},
		"multiply mismatch":        {expr: "multiply('1Gi', '1Gi')", err: "JMESPath function 'multiply': Types mismatch"},
		"divide numbers":           {expr: "divide(`7`, `2`)", want: 3.5},
		"divide quantities":        {expr: "divide('1Gi', '512Mi')", want: 2.0},
		"divide quantity scalar":   {expr: "divide('1Gi', `2`)", want: "512Mi"},
		"divide durations":         {expr: "divide('1h', '30m0s')", want: 2.0},
		"divide duration scalar":   {expr: "divide('1h', `4`)", want: "15m0s"},
		"divide by zero":           {expr: "divide(`1`, `0`)", err: "JMESPath function 'divide': Zero divisor passed"},
		"divide quantity by zero":  {expr: "divide('1Gi', '0')", err: "JMESPath function 'divide': Zero divisor passed"},
		"divide mismatch":          {expr: "divide(`1`, '1h')", err: "JMESPath function 'divide': Types mismatch"},
		"modulo numbers":           {expr: "modulo(`7`, `3`)", want: 1.0},
		"modulo quantities":        {expr: "modulo('7', '3')", want: "1"},
		"modulo durations":         {expr: "modulo('90m0s', '1h')", want: "30m0s"},
		"modulo fraction":          {expr: "modulo(`7.5`, `2`)", err: "JMESPath function 'modulo': Non-integer argument(s) passed for modulo"},
		"modulo by zero":           {expr: "modulo(`7`, `0`)", err: "JMESPath function 'modulo': Zero divisor passed"},
		"modulo mismatch":          {expr: "modulo('7', `3`)", err: "JMESPath function 'modulo': Types mismatch"},
		"round":                    {expr: "round(`3.14159`, `2`)", want: 3.14},
		"round zero places":        {expr: "round(`2.5`, `0`)", want: 3.0},
		"round fraction places":    {expr: "round(`1`, `1.5`)", err: "JMESPath function 'round': Non-integer argument(s) passed for round off"},
		"round negative places":    {expr: "round(`1`, `-1`)", err: "JMESPath function 'round': %!d(MISSING) argument is out of bounds (%!d(MISSING))"},
		"round bad type":           {expr: "round('1', `1`)", err: `Invalid type for: 1, expected: []jmespath.JpType{"number"}`},
	})
}

func TestCollectionFunctions(t *testing.T) {
	runCases(t, map[string]fnCase{
		"label_match":                    {expr: "label_match(`{\"a\":\"1\"}`, `{\"a\":\"1\",\"b\":\"2\"}`)", want: true},
		"label_match missing":            {expr: "label_match(`{\"c\":\"1\"}`, `{\"a\":\"1\"}`)", want: false},
		"label_match bad type":           {expr: "label_match('a', `{}`)", err: `Invalid type for: a, expected: []jmespath.JpType{"object"}`},
		"lookup object":                  {expr: "lookup(`{\"a\":1}`, 'a')", want: 1.0},
		"lookup missing key":             {expr: "lookup(`{\"a\":1}`, 'b')", want: nil},
		"lookup array":                   {expr: "lookup(`[\"x\",\"y\"]`, `1`)", want: "y"},
		"lookup array out of range":      {expr: "lookup(`[\"x\"]`, `5`)", want: nil},
		"lookup object number key":       {expr: "lookup(`{\"a\":1}`, `1`)", err: "JMESPath function 'lookup': argument #2 is not of type String"},
		"lookup array string key":        {expr: "lookup(`[1]`, '0')", err: "JMESPath function 'lookup': argument #2 is not of type Number"},
		"lookup array fraction":          {expr: "lookup(`[1]`, `0.5`)", err: "JMESPath function 'lookup': argument #2: expected an integer number but got: 0.5"},
		"items object sorted":            {expr: "items(`{\"b\":2,\"a\":1}`, 'k', 'v')", want: []map[string]any{{"k": "a", "v": 1.0}, {"k": "b", "v": 2.0}}},
		"items array":                    {expr: "items(`[\"x\"]`, 'i', 'v')", want: []map[string]any{{"i": 0.0, "v": "x"}}},
		"items bad type":                 {expr: "items('a', 'k', 'v')", err: `Invalid type for: a, expected: []jmespath.JpType{"object", "array"}`},
		"items filter":                   {expr: "items(`{\"key1\":\"1\",\"no\":\"2\"}`, 'key', 'value')[?starts_with(key, 'key')]", want: []any{map[string]any{"key": "key1", "value": "1"}}},
		"object_from_lists":              {expr: "object_from_lists(['a', 'b'], [`1`])", want: map[string]any{"a": 1.0, "b": nil}},
		"object_from_lists number key":   {expr: "object_from_lists([`1.5`, `true`], ['x', 'y'])", want: map[string]any{"1.5": "x", "true": "y"}},
		"object_from_lists bad key":      {expr: "object_from_lists([`null`], ['x'])", err: "JMESPath function 'object_from_lists': argument #1 is not of type StringArray"},
		"object_from_lists items fails":  {expr: "object_from_lists(items(`{\"a\":1}`, 'k', 'v'), ['x'])", err: "JMESPath function 'object_from_lists': argument #1 is not of type Array"},
		"object_from_lists bad type":     {expr: "object_from_lists('a', ['x'])", err: `Invalid type for: a, expected: []jmespath.JpType{"array"}`},
		"parse_json":                     {expr: "parse_json('{\"a\":[1,true]}')", want: map[string]any{"a": []any{1.0, true}}},
		"parse_json invalid":             {expr: "parse_json('{')", err: "unexpected end of JSON input"},
		"parse_yaml":                     {expr: "parse_yaml('a: 1\nb: [x]')", want: map[string]any{"a": 1.0, "b": []any{"x"}}},
		"parse_yaml invalid":             {expr: "parse_yaml('a: [')", err: "yaml: line 1: did not find expected node content"},
		"sha256":                         {expr: "sha256('abc')", want: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		"sha256 bad type":                {expr: "sha256(`1`)", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
		"sha1":                           {expr: "sha1('abc')", want: "a9993e364706816aba3e25717850c26c9cd0d89d"},
		"sha1 bad type":                  {expr: "sha1(`{}`)", err: `Invalid type for: map[], expected: []jmespath.JpType{"string"}`},
		"md5":                            {expr: "md5('abc')", want: "900150983cd24fb0d6963f7d28e17f72"},
		"md5 arity":                      {expr: "md5('a', 'b')", err: "incorrect number of args"},
		"image_normalize":                {expr: "image_normalize('nginx')", want: "docker.io/nginx:latest"},
		"image_normalize digest":         {expr: "image_normalize('ghcr.io/a/b@sha256:" + digest + "')", want: "ghcr.io/a/b@sha256:" + digest},
		"image_normalize bad":            {expr: "image_normalize('A:B:C')", err: "JMESPath function 'image_normalize': bad image: docker.io/A:B:C, defaultRegistry: docker.io, enableDefaultRegistryMutation: true: invalid reference format"},
		"random is refused":              {expr: "random('[a-z]{4}')", err: "JMESPath function 'random': not supported offline: its output is random, so a render would not be reproducible"},
		"x509_decode is refused":         {expr: "x509_decode('x')", err: "JMESPath function 'x509_decode': not supported offline: it is not implemented by this offline renderer"},
		"standard functions still exist": {expr: "length(`[1,2]`)", want: 2.0},
		"unknown function":               {expr: "nope('a')", err: "unknown function: nope"},
	})
}

const digest = "128c6e3534b842a2eec139999b8ce8aa9a2af9907e2b9269550809d18cd832a3"

func TestTimeFunctions(t *testing.T) {
	defer func(old func() time.Time) { now = old }(now)
	now = func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600)) }
	runCases(t, map[string]fnCase{
		"time_now":                 {expr: "time_now()", want: "2024-01-02T03:04:05+01:00"},
		"time_now_utc":             {expr: "time_now_utc()", want: "2024-01-02T02:04:05Z"},
		"time_since to now":        {expr: "time_since('', '2024-01-02T01:04:05Z', '')", want: "1h0m0s"},
		"time_since layout":        {expr: "time_since('2006-01-02', '2024-01-01', '2024-01-03')", want: "48h0m0s"},
		"time_since bad time":      {expr: "time_since('', 'x', '')", err: `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`},
		"time_to_cron":             {expr: "time_to_cron('2023-02-02T15:04:05Z')", want: "4 15 2 2 4"},
		"time_to_cron bad":         {expr: "time_to_cron('2023')", err: `parsing time "2023" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "-"`},
		"time_add":                 {expr: "time_add('2023-01-12T12:37:56-05:00', '6h')", want: "2023-01-12T18:37:56-05:00"},
		"time_add bad duration":    {expr: "time_add('2023-01-12T12:37:56Z', 'x')", err: `time: invalid duration "x"`},
		"time_parse layout":        {expr: "time_parse('Mon Jan 02 2006 15:04:05 -0700', 'Fri Jun 22 2022 17:45:00 +0100')", want: "2022-06-22T17:45:00+01:00"},
		"time_parse epoch":         {expr: "time_parse('1136239445', '1666717313')", want: "2022-10-25T17:01:53Z"},
		"time_parse epoch bad":     {expr: "time_parse('1', 'x')", err: `strconv.ParseInt: parsing "x": invalid syntax`},
		"time_utc":                 {expr: "time_utc('2023-02-02T15:04:05+02:00')", want: "2023-02-02T13:04:05Z"},
		"time_utc bad":             {expr: "time_utc(`1`)", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
		"time_diff":                {expr: "time_diff('2023-01-10T00:00:00Z', '2023-01-11T00:00:00Z')", want: "24h0m0s"},
		"time_diff bad":            {expr: "time_diff('x', '2023-01-11T00:00:00Z')", err: `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`},
		"time_before":              {expr: "time_before('2023-01-10T00:00:00Z', '2023-01-11T00:00:00Z')", want: true},
		"time_before bad":          {expr: "time_before('2023-01-10T00:00:00Z', 'y')", err: `parsing time "y" as "2006-01-02T15:04:05Z07:00": cannot parse "y" as "2006"`},
		"time_after":               {expr: "time_after('2023-01-10T00:00:00Z', '2023-01-11T00:00:00Z')", want: false},
		"time_after bad":           {expr: "time_after(`1`, 'y')", err: `Invalid type for: 1, expected: []jmespath.JpType{"string"}`},
		"time_between":             {expr: "time_between('2023-01-12T00:00:00Z', '2023-01-11T00:00:00Z', '2023-01-13T00:00:00Z')", want: true},
		"time_between bounds open": {expr: "time_between('2023-01-11T00:00:00Z', '2023-01-11T00:00:00Z', '2023-01-13T00:00:00Z')", want: false},
		"time_between bad":         {expr: "time_between('2023-01-12T00:00:00Z', 'x', 'y')", err: `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`},
		"time_truncate":            {expr: "time_truncate('2023-01-12T17:37:56Z', '1h')", want: "2023-01-12T17:00:00Z"},
		"time_truncate bad":        {expr: "time_truncate('2023-01-12T17:37:56Z', '1x')", err: `time: unknown unit "x" in duration "1x"`},
	})
}

func TestIsExternalURL(t *testing.T) {
	defer func(old func(string) ([]net.IPAddr, error)) { lookupIP = old }(lookupIP)
	lookupIP = func(host string) ([]net.IPAddr, error) {
		switch host {
		case "internal.example":
			return []net.IPAddr{{IP: net.ParseIP("10.0.0.1")}}, nil
		case "public.example":
			return []net.IPAddr{{IP: net.ParseIP("93.184.216.34")}}, nil
		}
		return nil, errors.New("lookup " + host + ": no such host")
	}
	runCases(t, map[string]fnCase{
		"private ip":        {expr: "is_external_url('http://192.168.1.1/x')", want: false},
		"loopback ip":       {expr: "is_external_url('http://127.0.0.1:8080')", want: false},
		"public ip":         {expr: "is_external_url('https://8.8.8.8')", want: true},
		"private host":      {expr: "is_external_url('http://internal.example')", want: false},
		"public host":       {expr: "is_external_url('http://public.example')", want: true},
		"unresolvable host": {expr: "is_external_url('http://nope.example')", err: "lookup nope.example: no such host"},
		"bad url":           {expr: "is_external_url('http://[::1')", err: `parse "http://[::1": missing ']' in host`},
	})
}

func TestNames(t *testing.T) {
	names := Names()
	assert.Len(t, names, 51)
	assert.Contains(t, names, "object_from_lists")
	assert.True(t, NonDeterministic["time_now_utc"])
	assert.False(t, NonDeterministic["time_add"])
}
