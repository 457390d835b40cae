package bench

import (
	"slices"
	"time"
)

// median of the rounds' figures: one round slowed by a neighbour's build
// does not move it, as it would move a mean.
func median(xs []time.Duration) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// perRequest is one round's CPU divided by its requests.
func perRequest(cpu time.Duration, requests int) time.Duration {
	if requests <= 0 {
		return 0
	}
	return cpu / time.Duration(requests)
}

// ratio is a/b, 0 when b is nothing (a floor not measured).
func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}
