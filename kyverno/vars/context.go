// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/apply-overrides/apply-overrides/kyverno/internal/jsonvalue"
)

// maxContextSize is the CLI's default limit on the bytes all context
// entries load into one policy context (config.DefaultMaxContextSize).
const maxContextSize = 2 * 1024 * 1024

// Context is the JSON context of one policy applied to one resource
// (pkg/engine/context). Create one per policy and resource with NewContext.
type Context struct {
	// data is the context's JSON value. Its request.object and
	// request.oldObject are shared with the checkpoints (copyData) and
	// never edited in place: SetObject and SetOldObject replace them, and a
	// query that could sort a list in place works on a private copy
	// (unshare).
	data        map[string]any
	checkpoints []map[string]any
	// pending is the object the last SetObject handed over, not yet
	// turned into request.object (hasPending): most objects set after a
	// change are never read before the next one replaces them.
	pending    map[string]any
	hasPending bool
	// pendingInt64 says that pending's integral numbers are int64s
	// already (SetObjectConverted).
	pendingInt64 bool
	loaders      []*loader
	// active is the loader being run: while it runs, queries only trigger
	// loaders declared before it, at its level or below.
	active struct{ level, index int }
	// operation is request.operation as set by SetOperation.
	op string
	// size counts the bytes loaded by context entries.
	size int64
	// warnings collects reload errors that upstream only logs.
	warnings []string
}

// NewContext returns an empty context.
func NewContext() *Context {
	c := &Context{data: map[string]any{}}
	c.active.level, c.active.index = -1, -1
	return c
}

// SetObject sets request.object to a copy of obj (integers kept as int64,
// as in the CLI's unstructured objects). The first call also sets
// request.namespace to metadata.namespace ("" when absent): upstream sets
// it once, when the policy context is built.
func (c *Context) SetObject(obj any) error {
	if m, ok := obj.(map[string]any); ok {
		return c.SetObjectOwned(jsonvalue.DeepCopy(m).(map[string]any))
	}
	c.dropPending()
	c.setLeaf(asUnstructured(obj), "request", "object")
	c.setNamespace(obj)
	return nil
}

// SetObjectOwned is SetObject for an object the context takes over: the
// caller neither reads nor changes obj afterwards, and the context turns
// its numbers into int64 in place when a query first reads it.
func (c *Context) SetObjectOwned(obj map[string]any) error {
	c.pending, c.hasPending, c.pendingInt64 = obj, true, false
	c.setNamespace(obj)
	return nil
}

// SetObjectConverted is SetObjectOwned for an object whose integral
// numbers are int64s already (jsonvalue.Int64NumbersInPlace): the context
// does not walk it again.
func (c *Context) SetObjectConverted(obj map[string]any) error {
	c.pending, c.hasPending, c.pendingInt64 = obj, true, true
	c.setNamespace(obj)
	return nil
}

// setNamespace sets request.namespace from obj on the first call.
func (c *Context) setNamespace(obj any) {
	if _, ok := c.request()["namespace"]; !ok {
		ns := ""
		if m, ok := obj.(map[string]any); ok {
			if meta, ok := m["metadata"].(map[string]any); ok {
				ns, _ = meta["namespace"].(string)
			}
		}
		c.request()["namespace"] = ns
	}
}

// materialize makes the pending object request.object.
func (c *Context) materialize() {
	if !c.hasPending {
		return
	}
	obj := c.pending
	if !c.pendingInt64 {
		jsonvalue.Int64NumbersInPlace(obj)
	}
	c.setLeaf(obj, "request", "object")
	c.dropPending()
}

func (c *Context) dropPending() { c.pending, c.hasPending, c.pendingInt64 = nil, false, false }

// unshare gives the context private copies of request.object,
// request.oldObject and the foreach elements, before a query that may edit
// what it reads (the
// JMESPath fork's sort_by sorts its argument in place, as upstream, where
// the edit stays in the context until the next checkpoint is restored).
func (c *Context) unshare() {
	for k, v := range c.data {
		if strings.HasPrefix(k, "element") && !strings.HasPrefix(k, "elementIndex") {
			c.data[k] = deepCopy(v) // EvaluateList shares elements with request.object
		}
	}
	r, ok := c.data["request"].(map[string]any)
	if !ok {
		return
	}
	for _, k := range sharedRequestKeys {
		if v, ok := r[k]; ok {
			r[k] = deepCopy(v)
		}
	}
}

// sharedRequestKeys are the entries of request the checkpoints share.
var sharedRequestKeys = []string{"object", "oldObject"}

// copyData copies the context's data for a checkpoint: deeply, except
// request.object and request.oldObject, which nothing edits in place.
func copyData(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		r, ok := v.(map[string]any)
		if k != "request" || !ok {
			out[k] = deepCopy(v)
			continue
		}
		req := make(map[string]any, len(r))
		for rk, rv := range r {
			if rk == "object" || rk == "oldObject" {
				req[rk] = rv
			} else {
				req[rk] = deepCopy(rv)
			}
		}
		out[k] = req
	}
	return out
}

// SetOldObject sets request.oldObject (UPDATE and DELETE simulation only).
func (c *Context) SetOldObject(obj any) error {
	c.setLeaf(asUnstructured(obj), "request", "oldObject")
	return nil
}

// SetOperation sets request.operation ("CREATE" offline). With "DELETE",
// substitution reads request.oldObject wherever a variable says
// request.object.
func (c *Context) SetOperation(op string) error {
	c.request()["operation"] = op
	c.op = op
	return nil
}

// Operation returns request.operation.
func (c *Context) Operation() string {
	if c.op != "" {
		return c.op
	}
	op, _ := c.request()["operation"].(string)
	return op
}

// AddVariable sets the context entry name (taken literally, dots included)
// to a JSON copy of v, replacing an earlier entry of that name
// (ReplaceContextEntry).
func (c *Context) AddVariable(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("failed to add context entry %s: %w", name, err)
	}
	return c.replaceEntry(name, data)
}

func (c *Context) replaceEntry(name string, data []byte) error {
	if c.size+int64(len(data)) > maxContextSize {
		return fmt.Errorf("context size limit exceeded: %d bytes exceeds limit of %d bytes", c.size+int64(len(data)), maxContextSize)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("failed to add context entry %s: %w", name, err)
	}
	c.size += int64(len(data))
	c.data[name] = v
	return nil
}

// AddElement sets element, element<nesting>, elementIndex and
// elementIndex<nesting> for one foreach element. The indexes are int64, as
// upstream: inside JMESPath, elementIndex == `0` is false, while
// "{{elementIndex}}" substitutes a number. Like upstream
// (DocumentToUntyped), an element that is not a string, list or map goes
// through JSON, so an int64 element becomes a float64; maps and lists are
// kept as they are (int64 inside stays int64). The context takes elem
// over: pass each element EvaluateList returned once, and do not change it
// afterwards.
func (c *Context) AddElement(elem any, index, nesting int) error {
	var e any
	switch elem.(type) {
	case string, []any, map[string]any:
		e = elem
	default:
		var err error
		if e, err = roundTrip(elem); err != nil {
			return err
		}
	}
	c.data["element"] = e
	c.data[elementName("element", nesting)] = e
	c.data["elementIndex"] = int64(index)
	c.data[elementName("elementIndex", nesting)] = int64(index)
	return nil
}

// elementName is prefix followed by nesting: element0, elementIndex1...
func elementName(prefix string, nesting int) string {
	if nesting >= 0 && nesting < len(elementNames) {
		if prefix == "element" {
			return elementNames[nesting][0]
		}
		return elementNames[nesting][1]
	}
	return prefix + strconv.Itoa(nesting)
}

var elementNames = func() (names [8][2]string) {
	for i := range names {
		names[i] = [2]string{"element" + strconv.Itoa(i), "elementIndex" + strconv.Itoa(i)}
	}
	return names
}()

// Warnings returns the errors of context entries that failed to reload after
// Reset or Restore; upstream logs them and carries on.
func (c *Context) Warnings() []string { return c.warnings }

// Checkpoint pushes a copy of the current data (used per rule and per
// foreach entry).
func (c *Context) Checkpoint() {
	c.materialize()
	c.checkpoints = append(c.checkpoints, copyData(c.data))
}

// Restore returns to the last checkpoint and pops it.
func (c *Context) Restore() {
	n := len(c.checkpoints)
	if n == 0 {
		return
	}
	c.dropPending()
	c.data = c.checkpoints[n-1]
	c.checkpoints = c.checkpoints[:n-1]
	c.resetLoaders(true, len(c.checkpoints))
}

// Reset returns to a copy of the last checkpoint and keeps it (used before
// each foreach element).
func (c *Context) Reset() {
	n := len(c.checkpoints)
	if n == 0 {
		return
	}
	c.dropPending()
	c.data = copyData(c.checkpoints[n-1])
	c.resetLoaders(false, n)
}

func (c *Context) request() map[string]any {
	r, ok := c.data["request"].(map[string]any)
	if !ok {
		r = map[string]any{}
		c.data["request"] = r
	}
	return r
}

// setLeaf sets data[path...] = v, creating (or replacing non-map) parents.
func (c *Context) setLeaf(v any, path ...string) {
	m := c.data
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}
