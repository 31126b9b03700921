// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package yamlpatch

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/apply-overrides/apply-overrides/internal/yamlnode"
)

// isString reports whether n reads as a JSON string; see IsString.
func isString(n *yaml.Node) bool {
	r := yamlnode.Resolve(n)
	return r != nil && r.Kind == yaml.ScalarNode && kindOf(r) == kindString
}

// setString implements SetString.
func setString(n *yaml.Node, s string) {
	if n == nil {
		return
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 && n.Content[0] != nil {
		n = n.Content[0]
	}
	old := n.Style
	if n.Kind != yaml.ScalarNode {
		old = 0
	}
	n.Kind = yaml.ScalarNode
	n.Tag = yaml.NodeTagString
	n.Value = s
	n.Alias, n.Content = nil, nil // an anchor stays: aliases to n must not dangle
	n.Style = stringStyle(s, old)
}

// stringStyle picks the style of a string scalar holding s whose previous
// style was old:
//
//   - quoted styles are kept (they can hold any string; the encoder falls
//     back to double quotes where single quotes cannot);
//   - literal blocks are kept for multi-line strings, and folded ones too
//     unless a line starts with white space or s ends in several line
//     breaks (the yaml.v3 encoder folds those wrongly), in which case they
//     become literal;
//   - otherwise multi-line strings become literal blocks, strings a YAML 1.2
//     or YAML 1.1 reader would take for something else when plain ("",
//     "8080", "true", "on", "yes", "~", "2024-01-01", ...) are double-quoted,
//     and the rest stay plain; the yaml.v3 encoder itself still quotes a
//     plain string that is not a valid plain scalar (": ", leading "{", ...).
func stringStyle(s string, old yaml.Style) yaml.Style {
	old &^= yaml.TaggedStyle | yaml.FlowStyle
	multiLine := strings.Contains(s, "\n")
	switch {
	case old&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		return old
	case old&yaml.LiteralStyle != 0 && multiLine:
		return yaml.LiteralStyle
	case old&yaml.FoldedStyle != 0 && multiLine:
		if foldable(s) {
			return yaml.FoldedStyle
		}
		return yaml.LiteralStyle
	case multiLine:
		return yaml.LiteralStyle
	case needsQuotes(s):
		return yaml.DoubleQuotedStyle
	default:
		return 0
	}
}

// needsQuotes reports whether plain s would not read back as the string s
// in YAML 1.2 (yaml.v3's resolver) or YAML 1.1 (kyaml's check with yaml.v2).
func needsQuotes(s string) bool {
	if s == "" {
		return true
	}
	plain := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	if plain.ShortTag() != yaml.NodeTagString {
		return true
	}
	return yamlnode.YAML11NonString(s)
}

// foldable reports whether the yaml.v3 encoder writes s correctly as a
// folded block: no line may start with white space, and s may not end in
// more than one line break.
func foldable(s string) bool {
	if strings.HasSuffix(s, "\n\n") {
		return false
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
			return false
		}
	}
	return true
}
