package pools

import (
	"context"
	"fmt"

	"poolbench.dev/lab-target/internal/metrics"
)

// partitioned keeps one pool of --max-conns per shard (seed 003 #3). A request names its
// shard (?shard= or ?key=), so a hot shard exhausts only its own pool.
type partitioned struct {
	shards []*box
}

func newPartitioned(d Deps) (*partitioned, error) {
	p := &partitioned{}
	for i := range d.Cfg.Shards {
		b, err := newBox(d, fmt.Sprintf("shard-%d", i), nil)
		if err != nil {
			p.Close()
			return nil, err
		}
		p.shards = append(p.shards, b)
	}
	return p, nil
}

func (p *partitioned) Name() string                { return "partitioned" }
func (p *partitioned) Shards() int                 { return len(p.shards) }
func (p *partitioned) Start(context.Context) error { return nil }

func (p *partitioned) Acquire(ctx context.Context, r Request) (*Lease, error) {
	if r.Shard < 0 || r.Shard >= len(p.shards) {
		return nil, fmt.Errorf("shard %d out of range [0,%d)", r.Shard, len(p.shards))
	}
	b := p.shards[r.Shard]
	c, err := b.acquire(ctx)
	if err != nil {
		return nil, err
	}
	l := b.lease(c, nil)
	l.Shard = r.Shard
	return l, nil
}

func (p *partitioned) Stats() []metrics.PoolStats {
	out := make([]metrics.PoolStats, 0, len(p.shards))
	for _, b := range p.shards {
		out = append(out, b.stats())
	}
	return out
}

func (p *partitioned) Close() {
	for _, b := range p.shards {
		b.pool.Close()
	}
}
