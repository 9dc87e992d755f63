package pools

import (
	"fmt"

	"poolbench.dev/lab-target/internal/config"
)

// New builds the strategy named by d.Cfg.Strategy. It opens no connection synchronously:
// a database that is down must not stop the instance from starting and reporting it.
func New(d Deps) (Strategy, error) {
	if config.IsMySQL(d.Cfg.DatabaseURL) {
		return newMySQL(d)
	}
	switch d.Cfg.Strategy {
	case "per-request":
		return newPerRequest(d)
	case "pool-per-request":
		return newPoolPerRequest(d)
	case "lazy", "fixed", "elastic", "prewarm":
		return newSingle(d, d.Cfg.Strategy)
	case "priority":
		g, err := newPriority(d)
		if err != nil {
			return nil, err
		}
		return priorityStrategy{g}, nil
	case "adaptive":
		return newAdaptive(d)
	case "partitioned":
		return newPartitioned(d)
	case "borrowing":
		return newBorrowing(d)
	}
	return nil, fmt.Errorf("unknown strategy %q", d.Cfg.Strategy)
}

// newMySQL builds the strategies supported on MariaDB (config.MySQLStrategies).
func newMySQL(d Deps) (Strategy, error) {
	switch d.Cfg.Strategy {
	case "per-request":
		return newMyPerRequest(d)
	case "pool-per-request":
		return newMyPoolPerRequest(d)
	case "lazy", "fixed", "elastic", "prewarm":
		return newMySingle(d, d.Cfg.Strategy)
	}
	return nil, fmt.Errorf("strategy %q is not supported on MariaDB", d.Cfg.Strategy)
}
