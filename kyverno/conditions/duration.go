// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package conditions

import (
	"time"
)

// durationPair converts key and value to durations when at least one of
// them is a Go duration string other than "0" ("0" parses but does not count
// as a duration here). The other side may then be a duration string too, or
// an int, int64 or float64 number of seconds; a float64 is truncated to whole
// seconds first (1.9 means 1s), as upstream's operator.parseDuration does.
// ok is false otherwise.
func durationPair(key, value any) (kd, vd time.Duration, ok bool) {
	kd, kok := durationString(key)
	vd, vok := durationString(value)
	if !kok && !vok {
		return 0, 0, false
	}
	if !kok {
		if kd, kok = durationSeconds(key); !kok {
			return 0, 0, false
		}
	}
	if !vok {
		if vd, vok = durationSeconds(value); !vok {
			return 0, 0, false
		}
	}
	return kd, vd, true
}

func durationString(v any) (time.Duration, bool) {
	s, ok := v.(string)
	if !ok || s == "0" {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// durationSeconds converts an int, int64 or float64 number of seconds to a
// duration, truncating a float64 to whole seconds before scaling (upstream
// writes time.Duration(x) * time.Second).
func durationSeconds(v any) (time.Duration, bool) {
	switch n := v.(type) {
	case int:
		return time.Duration(n) * time.Second, true
	case int64:
		return time.Duration(n) * time.Second, true
	case float64:
		return time.Duration(n) * time.Second, true
	}
	return 0, false
}

// durationOrdered implements the deprecated DurationGreaterThan(OrEquals) and
// DurationLessThan(OrEquals) (upstream operator/duration.go). Numbers are
// seconds (a float64 truncated to whole seconds); strings must be Go
// durations (here "0" is accepted). Other types, unparsable strings and an
// operator not spelled exactly are false.
func durationOrdered(key any, op string, value any) bool {
	var kd time.Duration
	switch k := key.(type) {
	case int, int64, float64:
		kd, _ = durationSeconds(k)
	case string:
		d, err := time.ParseDuration(k)
		if err != nil {
			return false
		}
		kd = d
	default:
		return false
	}
	var vd time.Duration
	switch v := value.(type) {
	case int, int64, float64:
		vd, _ = durationSeconds(v)
	case string:
		d, err := time.ParseDuration(v)
		if err != nil {
			return false
		}
		vd = d
	default:
		return false
	}
	switch op {
	case OpDurationGreaterThanOrEquals:
		return kd >= vd
	case OpDurationGreaterThan:
		return kd > vd
	case OpDurationLessThanOrEquals:
		return kd <= vd
	case OpDurationLessThan:
		return kd < vd
	}
	return false
}
