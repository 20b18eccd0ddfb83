// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package perfmodel

// This file holds the queue a service's requests wait in for a copy to take
// them: the wait before a request's prefill at a load, which the time to
// first token adds to the prefill and the decode step.

import "math"

const (
	// ArrivalCV2 is the squared coefficient of variation of the time
	// between requests: 1, Poisson arrivals, as MLPerf Inference's Server
	// scenario issues them (LoadGen) and as independent users send them.
	ArrivalCV2 = 1.0

	// ServiceCV2 is the squared coefficient of variation of a request's
	// service time on a copy, which its output length sets: fitted (with
	// the step model's constants, on servingbench's rate rows), 2, output
	// lengths spread wider than an exponential's (1), as the long tails of
	// chat and reasoning traces do.
	ServiceCV2 = 2.0

	// MaxUtilization is the most of its capacity a service is planned to
	// run at: 0.9. Near full capacity the queue, and with it the time to
	// first token, grows without bound (1 / (1 - utilization)); MLPerf's
	// Server runs reach 85% to 95% of their Offline throughput.
	MaxUtilization = 0.9
)

// QueueWait is the mean time a request waits for one of copies servers
// that each complete mu requests per second, at lambda requests per
// second: the Allen-Cunneen approximation of a G/G/c queue, the M/M/c
// wait (Erlang C) scaled by (ArrivalCV2 + ServiceCV2) / 2 (Allen 1990,
// "Probability, Statistics and Queueing Theory", §6.4). +Inf at or above
// capacity; 0 without a load.
func QueueWait(copies int64, lambda, mu float64) float64 {
	if lambda <= 0 || copies < 1 {
		return 0
	}
	c := float64(copies)
	if !(mu > 0) || lambda >= c*mu {
		return math.Inf(1)
	}
	return erlangC(copies, lambda/mu) / (c*mu - lambda) * (ArrivalCV2 + ServiceCV2) / 2
}

// erlangC is the probability that a request waits in an M/M/c queue of c
// servers offered a Erlangs (a < c), from the Erlang B recursion, which
// stays stable for thousands of servers.
func erlangC(c int64, a float64) float64 {
	b := 1.0
	for k := int64(1); k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	fc := float64(c)
	return fc * b / (fc - a*(1-b))
}
