// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package fn

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/apply-overrides/apply-overrides/internal/resourcelist"
)

// fanOutInputs are fan-out runs over the examples: every cluster, a
// clusterSelector, other path templates, keepPolicies (left-out resources
// kept as local configuration, policies kept at their own paths), a
// ConfigMap functionConfig, and items without path annotations.
func fanOutInputs(t *testing.T) map[string][]byte {
	t.Helper()
	stdin, err := os.ReadFile("../examples/stdin/resourcelist.yaml")
	require.NoError(t, err)
	inputs := map[string][]byte{
		"stdin, no paths": bytes.Replace(stdin, []byte("    cluster: member1\n"), []byte("    render: {clusters: [member2, member1]}\n"), 1),
		"stdin, keepPolicies": bytes.Replace(stdin, []byte("    cluster: member1\n"),
			[]byte("    keepPolicies: true\n    render: {clusters: ['*'], pathTemplate: 'out/{cluster}-{path}'}\n"), 1),
	}
	for _, dir := range []string{"../examples/fan-out", "../examples/kpt-eval"} {
		for name, spec := range map[string]string{
			"every cluster":         "  render: {clusters: ['*']}\n",
			"selector":              "  render: {clusters: ['*'], clusterSelector: {matchLabels: {env: prod}}}\n",
			"template":              "  render: {clusters: ['*'], pathTemplate: 'rendered/{cluster}/{path}'}\n",
			"odd template":          "  render: {clusters: ['*'], pathTemplate: '#{cluster}: {path}!'}\n",
			"keepPolicies":          "  keepPolicies: true\n  render: {clusters: ['*'], pathTemplate: '{cluster}/{path}'}\n",
			"enforce":               "  placement: enforce\n  render: {clusters: ['*']}\n",
			"keepPolicies, enforce": "  keepPolicies: true\n  placement: enforce\n  render: {clusters: ['*']}\n",
		} {
			inputs[dir[len("../examples/"):]+", "+name] = packageList(t, dir, fanOutConfig(spec))
		}
	}
	cm := packageList(t, "../examples/fan-out", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fan-out}\ndata: {render: 'member2,staging'}\n")
	inputs["fan-out, ConfigMap"] = cm
	inputs["fan-out, CRLF"] = bytes.ReplaceAll(cm, []byte("\n"), []byte("\r\n"))
	return inputs
}

// TestFanOutStreamMatchesWholeList: the streamed fan-out writes the whole
// list's output and results, byte for byte, and serves these inputs
// (falls back to the whole list for none of them but the template with a
// blank, which the splice cannot write).
func TestFanOutStreamMatchesWholeList(t *testing.T) {
	grouped := 0 // results naming several clusters a resource is not placed on
	for name, data := range fanOutInputs(t) {
		t.Run(name, func(t *testing.T) {
			norm, _ := resourcelist.Normalize(data)
			in, err := resourcelist.Parse(norm, listOptions)
			require.NoError(t, err)
			var want bytes.Buffer
			wantResults, ok := executeList(in, &want)
			require.True(t, ok, "%v", wantResults)

			out, results, streamed := streamFanOut(norm)
			if strings.Contains(name, "odd template") {
				assert.False(t, streamed, "a path with a blank is not spliced")
			} else {
				require.True(t, streamed, "the streamed fan-out serves it")
				var got bytes.Buffer
				_, err := out.WriteTo(&got)
				require.NoError(t, err)
				assert.Equal(t, want.String(), got.String())
				assert.Equal(t, wantResults, results)
				for _, res := range results {
					if strings.Contains(res.Message, " is not placed on clusters ") {
						grouped++
					}
				}
			}

			// Main's output is the whole list's, in the input's encoding.
			whole, wholeResults := execute(bytes.NewReader(data))
			_, enc := resourcelist.Normalize(data)
			assert.Equal(t, string(enc.Apply(want.Bytes())), string(whole))
			assert.Equal(t, wantResults, wholeResults)
		})
	}
	assert.Positive(t, grouped, "some input leaves a resource out of several clusters, reported once")
}

// TestFanOutStreamHandsOver: what the streamed fan-out leaves to the whole
// list, which reports it: a copy at a path the input keeps, an explaining
// run, and an input that holds the placeholders' text.
func TestFanOutStreamHandsOver(t *testing.T) {
	for name, spec := range map[string]string{
		"path taken": "  keepPolicies: true\n  render: {clusters: ['*'], pathTemplate: '{cluster}.yaml'}\n  clusters: [{name: policies}]\n",
		"explain":    "  explain: true\n  render: {clusters: ['*']}\n",
	} {
		t.Run(name, func(t *testing.T) {
			data := packageList(t, "../examples/fan-out", fanOutConfig(spec))
			_, _, ok := streamFanOut(data)
			assert.False(t, ok)
		})
	}
	data := packageList(t, "../examples/fan-out", fanOutConfig("  render: {clusters: ['*']}\n"))
	_, _, ok := streamFanOut(data)
	require.True(t, ok)
	data = append(data, "# "+pathPlaceholder+"\n"...)
	_, _, ok = streamFanOut(data)
	assert.False(t, ok, "an input holding a placeholder's text")
}

// TestScalarText: a path plainPath passes is written in quotes as it
// reads, as the encoder writes it; an index is quoted; a value with a
// blank cannot be spliced.
func TestScalarText(t *testing.T) {
	for _, p := range []string{"member1/a.yaml", "x", "0", "1.5", "true", "null", "a-b_c.d/e/f.yml", "2026-01-02", "0x1F", "member1/ns/Deployment_web.yaml"} {
		text, ok := scalarText(p)
		require.True(t, ok, p)
		if plainPath(p) {
			assert.Equal(t, "'"+p+"'", text, p)
		}
	}
	for k := range 12 {
		text, ok := scalarText(strconv.Itoa(k))
		require.True(t, ok)
		assert.Equal(t, "'"+strconv.Itoa(k)+"'", text)
	}
	for _, p := range []string{"a b", "a\tb", "a\nb"} {
		_, ok := scalarText(p)
		assert.False(t, ok, p)
	}
	for _, p := range []string{"", "-a", ".a", "/a", "a:b", "a b", "a'b", "a#b"} {
		assert.False(t, plainPath(p), p)
	}
}

// TestPackText: a copy's text comes back as it went in, deflated when
// that shrinks it and kept as it is when not, through one unpacker reused
// for texts of every size.
func TestPackText(t *testing.T) {
	noise := make([]byte, 300) // bytes deflate cannot shrink
	for i := range noise {
		noise[i] = byte(i*7919 + i*i*31)
	}
	texts := [][]byte{
		[]byte(strings.Repeat("  annotations:\n    config.kubernetes.io/path: '"+pathPlaceholder+"'\n", 40)),
		noise,
		[]byte("kind: ConfigMap\n"),
		[]byte(strings.Repeat("a", 70000)),
	}
	var u unpacker
	for round := range 2 {
		for k, text := range texts {
			packed, raw, err := packText(text)
			require.NoError(t, err)
			if k == 0 || k == 3 {
				assert.False(t, raw, "text %d deflates", k)
				assert.Less(t, len(packed), len(text)/4, "text %d", k)
			}
			if k == 1 {
				assert.True(t, raw, "noise is kept as it is")
			}
			got, err := u.text(&copyText{packed: packed, size: len(text), raw: raw})
			require.NoError(t, err, "round %d, text %d", round, k)
			assert.Equal(t, string(text), string(got), "round %d, text %d", round, k)
		}
	}
	packed, raw, err := packText(texts[0])
	require.NoError(t, err)
	require.False(t, raw)
	_, err = u.text(&copyText{packed: packed, size: len(texts[0]) - 1})
	assert.ErrorContains(t, err, "inflate a copy's text", "a text longer than its recorded size")
	_, err = u.text(&copyText{packed: packed, size: len(texts[0]) + 1})
	assert.ErrorContains(t, err, "inflate a copy's text", "a text shorter than its recorded size")
}
