// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// loader loads one context entry on first use (pkg/engine/context/deferred.go,
// on by default in v1.19.1): a query whose text mentions the entry's name
// runs it. level is the checkpoint depth at which it was added.
type loader struct {
	name    string
	level   int
	matched bool
	pattern *regexp.Regexp
	// run loads the data; loaded reports a successful load (the images
	// loader never reports one, so it runs again after each reset).
	run    func() error
	loaded func() bool
}

// mentioned reports whether query names the loader: its pattern matches,
// which needs the name's text when the name holds no pattern syntax.
func (l *loader) mentioned(query string) bool {
	if regexp.QuoteMeta(l.name) == l.name && !strings.Contains(query, l.name) {
		return false
	}
	return l.pattern.MatchString(query)
}

// newLoader builds the name matcher upstream uses; the name is not quoted.
func newLoader(name string, run func() error, loaded func() bool) (*loader, error) {
	re, err := namePattern(name)
	if err != nil {
		return nil, err
	}
	return &loader{name: name, pattern: re, run: run, loaded: loaded}, nil
}

// namePatterns caches the expression of each loader name: a policy's
// context entries and the images loader are registered anew for every
// resource.
var namePatterns sync.Map // name -> *regexp.Regexp

func namePattern(name string) (*regexp.Regexp, error) {
	if re, ok := namePatterns.Load(name); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(`(?:\A|\z|\s|[^.0-9A-Za-z])` + name + `\b`)
	if err != nil {
		return nil, err
	}
	namePatterns.Store(name, re)
	return re, nil
}

func (c *Context) addLoader(l *loader) {
	l.level = len(c.checkpoints)
	c.loaders = append(c.loaders, l)
}

// loadMatching runs, in order, every loader the query mentions that is
// visible from here and has not run since the last reset.
func (c *Context) loadMatching(query string) error {
	level, index := len(c.checkpoints), len(c.loaders)
	if c.active.level >= 0 {
		level = c.active.level
	}
	if c.active.index >= 0 {
		index = c.active.index
	}
	for {
		i := c.nextLoader(query, level, index)
		if i < 0 {
			return nil
		}
		if err := c.runLoader(i); err != nil {
			return err
		}
	}
}

func (c *Context) nextLoader(query string, level, index int) int {
	index = min(index, len(c.loaders))
	for i := 0; i < index; i++ {
		l := c.loaders[i]
		if l.matched || l.loaded() {
			continue
		}
		if l.level <= level && l.mentioned(query) {
			l.matched = true
			return i
		}
	}
	return -1
}

// runLoader runs loader i; afterwards no loader counts as active, even when
// it ran inside another one (as upstream).
func (c *Context) runLoader(i int) error {
	l := c.loaders[i]
	c.active.level, c.active.index = l.level, i
	defer func() { c.active.level, c.active.index = -1, -1 }()
	return l.run()
}

// resetLoaders follows a Reset (restore=false) or Restore (restore=true)
// that left the context at checkpoint depth level: loaders added deeper are
// dropped; loaded ones are run again so their data is back, and those of
// this very level are then dropped (their data is now part of the state).
func (c *Context) resetLoaders(restore bool, level int) {
	for _, l := range c.loaders {
		l.matched = false
	}
	for i := 0; i < len(c.loaders); i++ {
		l := c.loaders[i]
		switch {
		case l.level > level:
			c.loaders = append(c.loaders[:i], c.loaders[i+1:]...)
			i--
		case l.loaded():
			if restore || l.level < level {
				if err := c.runLoader(i); err != nil {
					c.warnings = append(c.warnings, fmt.Sprintf("failed to reload context entry %s: %v", l.name, err))
				}
			}
			if l.level == level {
				c.loaders = append(c.loaders[:i], c.loaders[i+1:]...)
				i--
			}
		case !restore && l.level == level:
			c.loaders = append(c.loaders[:i], c.loaders[i+1:]...)
			i--
		}
	}
}
