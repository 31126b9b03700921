// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package vars

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apply-overrides/apply-overrides/kyverno/vars/image"
)

// podSpecPaths is where each kind keeps its pod spec (pkg/utils/api/image.go).
var podSpecPaths = map[string][]string{
	"Pod":                   {"spec"},
	"DaemonSet":             {"spec", "template", "spec"},
	"Deployment":            {"spec", "template", "spec"},
	"ReplicaSet":            {"spec", "template", "spec"},
	"ReplicationController": {"spec", "template", "spec"},
	"StatefulSet":           {"spec", "template", "spec"},
	"Job":                   {"spec", "template", "spec"},
	"CronJob":               {"spec", "jobTemplate", "spec", "template", "spec"},
}

// AddImages registers the `images` variable of obj (a JSON value):
// images.{initContainers,containers,ephemeralContainers}.<container name>
// with registry, path, name, tag, digest, reference, referenceWithTag
// (empty ones omitted, except name and path) and jsonPointer. Like
// upstream, the data is that of obj as it is now (the caller does not
// change obj afterwards), added on the first query that mentions images;
// an extraction error (a container without a name, an unparsable image) is
// returned by that query, not here. Kinds without a pod spec, and pods
// without images, have no `images`. The data is extracted on that first
// query: most policies never read images.
func (c *Context) AddImages(obj any) error {
	var (
		data       map[string]any
		extractErr error
		extracted  bool
	)
	l, err := newLoader("images", func() error {
		if !extracted {
			data, extractErr = extractImages(obj)
			extracted = true
		}
		if extractErr != nil {
			return extractErr
		}
		if len(data) > 0 {
			mergeInto(c.data, map[string]any{"images": deepCopy(data)})
		}
		return nil
	}, func() bool { return false })
	if err != nil {
		return err
	}
	c.addLoader(l)
	return nil
}

func extractImages(obj any) (map[string]any, error) {
	m, _ := obj.(map[string]any)
	kind, _ := m["kind"].(string)
	path, ok := podSpecPaths[kind]
	if !ok {
		return nil, nil
	}
	out := map[string]any{}
	for _, group := range []string{"initContainers", "containers", "ephemeralContainers"} {
		found := map[string]any{}
		fields := append(append(append([]string{}, path...), group), "*")
		if err := extractFrom(m, nil, fields, found); err != nil {
			return nil, err
		}
		if len(found) > 0 {
			out[group] = found
		}
	}
	return out, nil
}

// extractFrom walks fields ("*" = every list element or map value) and
// records the image of each container found.
func extractFrom(obj any, path, fields []string, found map[string]any) error {
	if obj == nil {
		return nil
	}
	if len(fields) > 0 && fields[0] == "*" {
		switch t := obj.(type) {
		case []any:
			for i, v := range t {
				p := append(append([]string{}, path...), strconv.Itoa(i))
				switch v.(type) {
				case map[string]any:
					if err := extractFrom(v, p, fields[1:], found); err != nil {
						return err
					}
				case []any:
					if err := extractFrom(v, p, fields, found); err != nil {
						return err
					}
				}
			}
			return nil
		case map[string]any:
			for _, k := range sortedKeys(t) {
				switch t[k].(type) {
				case map[string]any, []any:
					p := append(append([]string{}, path...), k)
					if err := extractFrom(t[k], p, fields[1:], found); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	m, ok := obj.(map[string]any)
	if !ok {
		return errors.New("invalid image config")
	}
	if len(fields) > 0 {
		return extractFrom(m[fields[0]], append(append([]string{}, path...), fields[0]), fields[1:], found)
	}
	pointer := "/" + strings.Join(path, "/") + "/image"
	name, ok := m["name"].(string)
	if !ok {
		return errors.New("invalid key")
	}
	ref, ok := m["image"].(string)
	if !ok || strings.TrimSpace(ref) == "" {
		return nil
	}
	info, err := image.Parse(ref)
	if err != nil {
		return fmt.Errorf("invalid image '%s' (%s)", ref, err.Error())
	}
	entry := map[string]any{"name": info.Name, "path": info.Path, "jsonPointer": pointer}
	for k, v := range map[string]string{"registry": info.Registry, "tag": info.Tag, "digest": info.Digest,
		"reference": info.Reference, "referenceWithTag": info.ReferenceWithTag} {
		if v != "" {
			entry[k] = v
		}
	}
	found[name] = entry
	return nil
}

// mergeInto merges src into dst, map into map (mergeMaps without
// overwriting maps).
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		sm, ok := v.(map[string]any)
		dm, ok2 := dst[k].(map[string]any)
		if ok && ok2 {
			mergeInto(dm, sm)
			continue
		}
		dst[k] = v
	}
}
