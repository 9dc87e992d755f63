package pools

import (
	"context"
	"sync"
	"time"
)

// gate is a counting semaphore with a resizable limit and two FIFO wait queues; a freed
// slot always goes to the oldest high-priority waiter first. It sits in front of a pgxpool
// whose own MaxConns is never below the gate's limit, so the gate, not pgxpool, decides
// who waits and in which order.
type gate struct {
	mu        sync.Mutex
	limit     int
	inUse     int
	peakInUse int          // highest inUse since the last takePeak
	queues    [2][]*waiter // 0 = high, 1 = normal
}

type waiter struct {
	ch      chan struct{}
	since   time.Time
	granted bool
}

func newGate(limit int) *gate { return &gate{limit: limit} }

func queueIndex(high bool) int {
	if high {
		return 0
	}
	return 1
}

// acquire takes a slot, waiting if needed; waited reports whether it had to queue.
func (g *gate) acquire(ctx context.Context, high bool) (waited bool, err error) {
	g.mu.Lock()
	if g.inUse < g.limit && len(g.queues[0]) == 0 && len(g.queues[1]) == 0 {
		g.take()
		g.mu.Unlock()
		return false, nil
	}
	w := &waiter{ch: make(chan struct{}), since: time.Now()}
	q := queueIndex(high)
	g.queues[q] = append(g.queues[q], w)
	g.mu.Unlock()

	select {
	case <-w.ch:
		return true, nil
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		if w.granted {
			// Granted while we were giving up: hand the slot on instead of leaking it.
			g.inUse--
			g.dispatch()
			return true, ctx.Err()
		}
		g.remove(q, w)
		return true, ctx.Err()
	}
}

func (g *gate) take() {
	g.inUse++
	g.peakInUse = max(g.peakInUse, g.inUse)
}

func (g *gate) remove(q int, w *waiter) {
	for i, x := range g.queues[q] {
		if x == w {
			g.queues[q] = append(g.queues[q][:i], g.queues[q][i+1:]...)
			return
		}
	}
}

func (g *gate) release() {
	g.mu.Lock()
	g.inUse--
	g.dispatch()
	g.mu.Unlock()
}

// dispatch grants free slots to waiters, high priority first. Caller holds mu.
func (g *gate) dispatch() {
	for g.inUse < g.limit {
		q := 0
		if len(g.queues[0]) == 0 {
			q = 1
		}
		if len(g.queues[q]) == 0 {
			return
		}
		w := g.queues[q][0]
		g.queues[q] = g.queues[q][1:]
		w.granted = true
		g.take()
		close(w.ch)
	}
}

func (g *gate) setLimit(n int) {
	g.mu.Lock()
	g.limit = n
	g.dispatch()
	g.mu.Unlock()
}

type gateSnapshot struct {
	limit, inUse, peakInUse, waiting int
	waitingFor                       time.Duration // summed over current waiters
}

// snapshot reads the state; with resetPeak it starts a new peak-in-use window.
func (g *gate) snapshot(resetPeak bool) gateSnapshot {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := gateSnapshot{limit: g.limit, inUse: g.inUse, peakInUse: g.peakInUse}
	now := time.Now()
	for _, q := range g.queues {
		for _, w := range q {
			s.waiting++
			s.waitingFor += now.Sub(w.since)
		}
	}
	if resetPeak {
		g.peakInUse = g.inUse
	}
	return s
}
