// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"sync"
	"sync/atomic"

	gojmespath "github.com/kyverno/go-jmespath"
)

// memo remembers up to maxMemo results of a pure function of a string,
// shared by all goroutines: the same few variables and queries of a
// policy come back for every resource, while text substituted into them
// (which can make each one new) stops being remembered at the bound.
type memo[V any] struct {
	m sync.Map // string -> V
	n atomic.Int64
}

const maxMemo = 4096

func (c *memo[V]) get(key string, f func(string) V) V {
	if v, ok := c.m.Load(key); ok {
		return v.(V)
	}
	v := f(key)
	if c.n.Load() < maxMemo {
		if _, loaded := c.m.LoadOrStore(key, v); !loaded {
			c.n.Add(1)
		}
	}
	return v
}

// compiledQuery is a JMESPath expression parsed (jp) or its parse error.
// A *gojmespath.JMESPath is safe for concurrent use.
type compiledQuery struct {
	jp  *gojmespath.JMESPath
	err error
}

var (
	queries        memo[compiledQuery]
	variableLists  memo[[]string]
	variableStarts memo[bool]
	variableTexts  memo[variableParts]
)

// compileCached is compile, remembered by expression.
func compileCached(expr string) (*gojmespath.JMESPath, error) {
	q := queries.get(expr, func(e string) compiledQuery {
		jp, err := compile(e)
		return compiledQuery{jp, err}
	})
	return q.jp, q.err
}

// findVariables is reVariable.FindAllString(s, -1), remembered by s; the
// caller does not change the list.
func findVariables(s string) []string {
	return variableLists.get(s, func(s string) []string { return reVariable.FindAllString(s, -1) })
}

// startsWithVariable is reVariableStart.MatchString(v), remembered by v: v
// is a match of reVariable, one of the few a policy's strings hold.
func startsWithVariable(v string) bool {
	return variableStarts.get(v, reVariableStart.MatchString)
}

// variableParts is what variableText returns.
type variableParts struct {
	text    string
	shallow bool
}

// variableTextCached is variableText, remembered by v.
func variableTextCached(v string) (text string, shallow bool) {
	p := variableTexts.get(v, func(v string) variableParts {
		text, shallow := variableText(v)
		return variableParts{text, shallow}
	})
	return p.text, p.shallow
}
