// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"encoding/json"
	"fmt"
)

// VariableEntry is a context entry of kind variable (Rule.context[].variable).
type VariableEntry struct {
	// Name is the entry name, e.g. "annotations".
	Name string
	// Value is variable.value, a JSON value; variables in it are substituted.
	Value any
	// JMESPath is variable.jmesPath, applied to Value when set, else to the
	// context; variables in it are substituted first.
	JMESPath string
	// Default is variable.default, used when JMESPath fails or (without a
	// value) yields null.
	Default any
	// HasValue and HasDefault tell whether value and default are set; a
	// JSON null counts as unset, as in upstream's decoding.
	HasValue, HasDefault bool
}

// LoadVariable evaluates a variable entry now and sets it, replacing an
// earlier entry of that name (pkg/engine/context/loaders/variable.go).
// Upstream defers the evaluation to the first query that mentions the
// name (DeferVariable); LoadVariable surfaces every entry's error at once.
func (c *Context) LoadVariable(entry VariableEntry) error {
	_, err := c.loadVariable(entry)
	return err
}

// DeferVariable registers a variable entry the way upstream does by
// default: it is evaluated on the first query whose text mentions its name,
// and its errors are that query's errors (so an unused entry never fails).
// After Reset or Restore a loaded entry is evaluated again.
func (c *Context) DeferVariable(entry VariableEntry) error {
	loaded := false
	l, err := newLoader(entry.Name, func() error {
		ok, err := c.loadVariable(entry)
		loaded = loaded || ok
		return err
	}, func() bool { return loaded })
	if err != nil {
		return fmt.Errorf("failed to create deferred loader for context entry %s", entry.Name)
	}
	c.addLoader(l)
	return nil
}

// loadVariable evaluates entry and stores it; ok reports that it was stored.
func (c *Context) loadVariable(entry VariableEntry) (ok bool, err error) {
	path := ""
	if entry.JMESPath != "" {
		v, err := substitute(c, entry.JMESPath)
		if err != nil {
			return false, fmt.Errorf("failed to substitute variables in context entry %s %s: %v", entry.Name, entry.JMESPath, err)
		}
		s, isString := v.(string)
		if !isString {
			return false, fmt.Errorf("jmespath value must be a string %s %s: %v", entry.Name, entry.JMESPath, error(nil))
		}
		path = s
	}
	var def any
	if entry.HasDefault && entry.Default != nil {
		if def, err = substitute(c, entry.Default); err != nil {
			return false, fmt.Errorf("failed to substitute variables in context entry %s %s: %v", entry.Name, entry.Default, err)
		}
	}
	output := def
	switch {
	case entry.HasValue && entry.Value != nil:
		v, err := substitute(c, entry.Value)
		if err != nil {
			return false, fmt.Errorf("failed to substitute variables in context entry %s %s: %v", entry.Name, entry.Value, err)
		}
		if path == "" {
			output = v
			break
		}
		// With a value, a successful query replaces the default even when
		// it yields null.
		result, err := applyJMESPath(path, v)
		if err == nil {
			output = result
		} else if def == nil {
			return false, fmt.Errorf("failed to apply jmespath %s to variable %v: %v", path, v, err)
		}
	case path != "":
		result, err := c.Query(path)
		if err == nil {
			if result != nil {
				output = result
			}
		} else if def == nil {
			return false, fmt.Errorf("failed to apply jmespath %s to variable %v: %v", path, nil, err)
		}
	}
	if output == nil {
		return false, fmt.Errorf("failed to add context entry for variable %s since it evaluated to nil", entry.Name)
	}
	data, err := json.Marshal(output)
	if err != nil {
		return false, fmt.Errorf("failed to add context entry for variable %s: %v", entry.Name, err)
	}
	if err := c.replaceEntry(entry.Name, data); err != nil {
		return false, err
	}
	return true, nil
}

// applyJMESPath runs a context entry's jmesPath on its value.
func applyJMESPath(expr string, data any) (any, error) {
	compiled, err := compile(expr)
	if err != nil {
		return nil, fmt.Errorf("failed to compile JMESPath: %s, error: %v", expr, err)
	}
	return search(compiled, data)
}
