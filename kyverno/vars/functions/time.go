// Copyright 2026 The apply-overrides Authors.
// SPDX-License-Identifier: Apache-2.0

package functions

import (
	"strconv"
	"time"
)

// now is the clock of time_now, time_now_utc and time_since.
var now = time.Now

func timeArg(fn string, args []any, i int) (time.Time, error) {
	s, err := argString(fn, args, i)
	if err != nil {
		return time.Time{}, err
	}
	return time.Parse(time.RFC3339, s)
}

func durationArg(fn string, args []any, i int) (time.Duration, error) {
	s, err := argString(fn, args, i)
	if err != nil {
		return 0, err
	}
	return time.ParseDuration(s)
}

// timeSince parses both times with layout (RFC 3339 when empty); an empty
// end time means now.
func timeSince(args []any) (any, error) {
	layout, err := argString("time_since", args, 0)
	if err != nil {
		return nil, err
	}
	start, err := argString("time_since", args, 1)
	if err != nil {
		return nil, err
	}
	end, err := argString("time_since", args, 2)
	if err != nil {
		return nil, err
	}
	if layout == "" {
		layout = time.RFC3339
	}
	t1, err := time.Parse(layout, start)
	if err != nil {
		return nil, err
	}
	t2 := now()
	if end != "" {
		if t2, err = time.Parse(layout, end); err != nil {
			return nil, err
		}
	}
	return t2.Sub(t1).String(), nil
}

func timeNow([]any) (any, error) { return now().Format(time.RFC3339), nil }

func timeNowUTC([]any) (any, error) { return now().UTC().Format(time.RFC3339), nil }

func timeToCron(args []any) (any, error) {
	t, err := timeArg("time_to_cron", args, 0)
	if err != nil {
		return nil, err
	}
	return strconv.Itoa(t.Minute()) + " " + strconv.Itoa(t.Hour()) + " " + strconv.Itoa(t.Day()) + " " +
		strconv.Itoa(int(t.Month())) + " " + strconv.Itoa(int(t.Weekday())), nil
}

// timeAdd reports argument errors under time_to_cron, like upstream.
func timeAdd(args []any) (any, error) {
	t, err := timeArg("time_to_cron", args, 0)
	if err != nil {
		return nil, err
	}
	d, err := durationArg("time_to_cron", args, 1)
	if err != nil {
		return nil, err
	}
	return t.Add(d).Format(time.RFC3339), nil
}

// timeParse reads ts with layout; a layout that is an integer means ts is
// Unix seconds.
func timeParse(args []any) (any, error) {
	layout, ts, err := twoStrings("time_parse", args)
	if err != nil {
		return nil, err
	}
	if _, err := strconv.ParseInt(layout, 10, 64); err == nil {
		epoch, err := strconv.ParseInt(ts, 10, 64)
		if err != nil {
			return nil, err
		}
		return time.Unix(epoch, 0).UTC().Format(time.RFC3339), nil
	}
	t, err := time.Parse(layout, ts)
	if err != nil {
		return nil, err
	}
	return t.Format(time.RFC3339), nil
}

func timeUTC(args []any) (any, error) {
	t, err := timeArg("time_utc", args, 0)
	if err != nil {
		return nil, err
	}
	return t.UTC().Format(time.RFC3339), nil
}

func twoTimes(fn string, args []any) (time.Time, time.Time, error) {
	t1, err := timeArg(fn, args, 0)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	t2, err := timeArg(fn, args, 1)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	return t1, t2, nil
}

func timeDiff(args []any) (any, error) {
	t1, t2, err := twoTimes("time_diff", args)
	if err != nil {
		return nil, err
	}
	return t2.Sub(t1).String(), nil
}

func timeBefore(args []any) (any, error) {
	t1, t2, err := twoTimes("time_before", args)
	if err != nil {
		return nil, err
	}
	return t1.Before(t2), nil
}

func timeAfter(args []any) (any, error) {
	t1, t2, err := twoTimes("time_after", args)
	if err != nil {
		return nil, err
	}
	return t1.After(t2), nil
}

func timeBetween(args []any) (any, error) {
	t, start, err := twoTimes("time_between", args)
	if err != nil {
		return nil, err
	}
	end, err := timeArg("time_between", args, 2)
	if err != nil {
		return nil, err
	}
	return t.After(start) && t.Before(end), nil
}

func timeTruncate(args []any) (any, error) {
	t, err := timeArg("time_truncate", args, 0)
	if err != nil {
		return nil, err
	}
	d, err := durationArg("time_truncate", args, 1)
	if err != nil {
		return nil, err
	}
	return t.Truncate(d).Format(time.RFC3339), nil
}
