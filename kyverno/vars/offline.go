// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"fmt"
	"regexp"
	"strings"

	gojmespath "github.com/kyverno/go-jmespath"

	"github.com/apply-overrides/apply-overrides/kyverno/vars/functions"
)

// rawJMESPath matches the paths of fields that hold a JMESPath expression
// without braces: a variable context entry's jmesPath and a foreach list.
var rawJMESPath = regexp.MustCompile(`(/variable/jmesPath|/foreach/\d+/list)$`)

// expression is one JMESPath expression found in a rule.
type expression struct {
	text, path string
	ast        gojmespath.ASTNode
}

// CheckOffline rejects a rule (a JSON value) that reads data an offline
// render does not have: request.userInfo, request.roles,
// request.clusterRoles, serviceAccountName, serviceAccountNamespace,
// request.oldObject and the other admission request fields (request.name,
// request.kind, request.uid, ...). It reads {{ }} variables, nested ones
// included, and the brace-free expressions of context variable jmesPath and
// foreach list fields.
func CheckOffline(rule any) error {
	exprs, err := expressions(rule)
	if err != nil {
		return err
	}
	for _, e := range exprs {
		var w astWalker
		w.eval(e.ast, nil, true)
		for _, p := range w.paths {
			if name, why := offlineProblem(p); why != "" {
				return fmt.Errorf("variable %q %s (in %q at %s)", name, why, e.text, e.path)
			}
		}
	}
	return nil
}

// NonDeterministic lists the calls of functions whose result depends on the
// clock, randomness or DNS (random, time_now, time_now_utc, time_since,
// is_external_url), as "time_now_utc() at /mutate/patchStrategicMerge/...".
func NonDeterministic(rule any) []string {
	exprs, err := expressions(rule)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range exprs {
		var w astWalker
		w.eval(e.ast, nil, true)
		for _, f := range w.funcs {
			msg := fmt.Sprintf("%s() at %s", f, e.path)
			if functions.NonDeterministic[f] && !seen[msg] {
				seen[msg] = true
				out = append(out, msg)
			}
		}
	}
	return out
}

func offlineProblem(p []string) (string, string) {
	const user = "needs admission user info, which an offline render does not have"
	switch {
	case p[0] == "serviceAccountName" || p[0] == "serviceAccountNamespace":
		return p[0], user
	case p[0] != "request" || len(p) < 2:
		return "", ""
	}
	name := "request." + p[1]
	switch p[1] {
	case "object", "namespace", "operation":
		return "", ""
	case "userInfo", "roles", "clusterRoles":
		return name, user
	case "oldObject":
		return name, "needs the previous version of the resource, which exists only for UPDATE and DELETE requests; an offline render is a CREATE"
	}
	return name, "is a field of the admission request, which an offline render does not have (it sets only request.object, request.namespace and request.operation)"
}

// expressions parses every {{ }} variable of the rule's strings and keys
// (inner variables first, then the outer ones with the inner replaced by a
// placeholder) and the brace-free JMESPath fields. Unparsable expressions
// are skipped: validation or substitution reports them.
func expressions(rule any) ([]expression, error) {
	var out []expression
	add := func(text, at string) {
		if ast, err := gojmespath.NewParser().Parse(text); err == nil {
			out = append(out, expression{text: text, path: at, ast: ast})
		}
	}
	_, err := walk(rule, "", func(elem any, at string) (any, error) {
		s, ok := elem.(string)
		if !ok {
			return elem, nil
		}
		for round := 0; round < maxRounds; round++ {
			found := reVariable.FindAllStringSubmatch(s, -1)
			if len(found) == 0 {
				break
			}
			for _, m := range found {
				if text, _ := variableText(m[2]); text != "@" {
					add(text, at)
				}
				s = strings.Replace(s, m[2], "placeholderValue", 1)
			}
		}
		if rawJMESPath.MatchString(at) {
			add(s, at)
		}
		return elem, nil
	})
	return out, err
}

// astWalker collects the context paths an expression reads from its root
// (request.userInfo.name gives [request], [request userInfo], ...) and the
// functions it calls.
type astWalker struct {
	paths [][]string
	funcs []string
}

// eval walks n evaluated on base (a path from the root when rooted) and
// returns the path of its result when that is still a root path.
func (w *astWalker) eval(n gojmespath.ASTNode, base []string, rooted bool) ([]string, bool) {
	child := func(i int) gojmespath.ASTNode {
		if i < len(n.Children) {
			return n.Children[i]
		}
		return gojmespath.ASTNode{}
	}
	switch n.NodeType {
	case gojmespath.ASTField:
		if !rooted {
			return nil, false
		}
		name, _ := n.Value.(string)
		p := append(append([]string{}, base...), name)
		w.paths = append(w.paths, p)
		return p, true
	case gojmespath.ASTCurrentNode, gojmespath.ASTIdentity, gojmespath.ASTIndex, gojmespath.ASTSlice:
		return base, rooted
	case gojmespath.ASTSubexpression, gojmespath.ASTIndexExpression:
		p, r := w.eval(child(0), base, rooted)
		return w.eval(child(1), p, r)
	case gojmespath.ASTFlatten:
		return w.eval(child(0), base, rooted)
	case gojmespath.ASTProjection, gojmespath.ASTValueProjection, gojmespath.ASTFilterProjection:
		p, r := w.eval(child(0), base, rooted)
		for _, c := range n.Children[min(1, len(n.Children)):] {
			w.eval(c, p, r)
		}
		return nil, false
	case gojmespath.ASTPipe:
		p, r := base, rooted
		for _, c := range n.Children {
			p, r = w.eval(c, p, r)
		}
		return p, r
	case gojmespath.ASTFunctionExpression:
		name, _ := n.Value.(string)
		w.funcs = append(w.funcs, name)
	case gojmespath.ASTExpRef:
		w.eval(child(0), nil, false)
		return nil, false
	}
	for _, c := range n.Children {
		w.eval(c, base, rooted)
	}
	return nil, false
}
