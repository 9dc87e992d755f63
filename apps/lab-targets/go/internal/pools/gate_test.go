package pools

import (
	"context"
	"errors"
	"testing"
	"time"
)

// queued waits until the gate has n waiters.
func queued(t *testing.T, g *gate, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for g.snapshot(false).waiting != n {
		if time.Now().After(deadline) {
			t.Fatalf("gate never had %d waiters", n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestGateGrantsHighPriorityFirstThenFIFO(t *testing.T) {
	g := newGate(1)
	if waited, err := g.acquire(context.Background(), false); err != nil || waited {
		t.Fatalf("free gate: waited=%v err=%v", waited, err)
	}
	got := make(chan string, 4)
	enqueue := func(name string, high bool) {
		go func() {
			if _, err := g.acquire(context.Background(), high); err == nil {
				got <- name
			}
		}()
	}
	enqueue("n1", false)
	queued(t, g, 1)
	enqueue("n2", false)
	queued(t, g, 2)
	enqueue("h1", true)
	queued(t, g, 3)
	want := []string{"h1", "n1", "n2"}
	for _, w := range want {
		g.release()
		if name := <-got; name != w {
			t.Fatalf("granted %s, want %s (order %v)", name, w, want)
		}
	}
}

func TestGateCancelledWaiterLeavesQueueAndSlotIsNotLost(t *testing.T) {
	g := newGate(1)
	_, _ = g.acquire(context.Background(), false)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := g.acquire(ctx, false); errc <- err }()
	queued(t, g, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}
	g.release()
	if s := g.snapshot(false); s.inUse != 0 || s.waiting != 0 {
		t.Fatalf("after cancel and release: %+v", s)
	}
	if waited, err := g.acquire(context.Background(), false); err != nil || waited {
		t.Fatalf("slot lost after a cancelled waiter: waited=%v err=%v", waited, err)
	}
}

func TestGateRaisingTheLimitAdmitsWaiters(t *testing.T) {
	g := newGate(1)
	_, _ = g.acquire(context.Background(), false)
	done := make(chan struct{}, 2)
	for range 2 {
		go func() {
			if _, err := g.acquire(context.Background(), false); err == nil {
				done <- struct{}{}
			}
		}()
	}
	queued(t, g, 2)
	g.setLimit(3)
	<-done
	<-done
	if s := g.snapshot(false); s.inUse != 3 || s.peakInUse != 3 {
		t.Fatalf("after growing to 3: %+v", s)
	}
	g.setLimit(1) // shrinking never revokes held slots; new acquirers wait until inUse < 1
	g.release()
	g.release()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := g.acquire(ctx, false); err == nil {
		t.Fatal("acquired beyond the shrunk limit")
	}
}
