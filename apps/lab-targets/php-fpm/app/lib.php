<?php
// Shared by the request scripts of the php-fpm lab target (docs/runtimes.md). PHP keeps nothing
// between requests but persistent connections, so the pool's numbers live in System V shared
// memory, one segment per instance, guarded by a semaphore.
declare(strict_types=1);

final class HttpError extends Exception
{
    public function __construct(public int $status, public string $codeName, string $message, public array $extra = [])
    {
        parent::__construct($message);
    }
}

function cfg(): array
{
    static $cfg = null;
    if ($cfg === null) {
        $cfg = json_decode((string) file_get_contents((string) getenv('LAB_CONFIG')), true, 8, JSON_THROW_ON_ERROR);
    }
    return $cfg;
}

/** Counters in shared memory: [name => number]. */
final class Shm
{
    private static $shm = null;
    private static $sem = null;

    private static function open(): void
    {
        if (self::$shm === null) {
            $key = (int) cfg()['shmKey'];
            self::$sem = sem_get($key, 1, 0600, true);
            self::$shm = shm_attach($key, 1 << 16, 0600);
        }
    }

    /** Applies $f to the counters under the lock. */
    public static function update(callable $f): array
    {
        self::open();
        sem_acquire(self::$sem);
        try {
            $v = shm_has_var(self::$shm, 1) ? shm_get_var(self::$shm, 1) : [];
            $v = $f($v);
            shm_put_var(self::$shm, 1, $v);
            return $v;
        } finally {
            sem_release(self::$sem);
        }
    }

    public static function read(): array
    {
        return self::update(fn (array $v) => $v);
    }
}

const WAIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function dialect(): string
{
    return str_starts_with(cfg()['databaseUrl'], 'mysql') || str_starts_with(cfg()['databaseUrl'], 'mariadb') ? 'mysql' : 'pgsql';
}

function table(string $name): string
{
    return dialect() === 'pgsql' ? "lab.$name" : $name;
}

/**
 * The request's connection: persistent (the child's own, kept across requests: strategy fixed)
 * or opened for this request and closed at its end (per-request). Timed as the pool's acquire.
 */
function connect(): PDO
{
    $c = cfg();
    $u = parse_url($c['databaseUrl']);
    $db = ltrim($u['path'] ?? '', '/');
    $user = urldecode($u['user'] ?? '');
    $pass = urldecode($u['pass'] ?? '');
    $timeoutS = max(1, (int) ceil($c['connectTimeoutMs'] / 1000));
    if (dialect() === 'pgsql') {
        $dsn = sprintf('pgsql:host=%s;port=%d;dbname=%s;connect_timeout=%d;application_name=%s:main', $u['host'], $u['port'] ?? 5432, $db, $timeoutS, $c['applicationName']);
        if ($c['statementTimeoutMs'] > 0) {
            $dsn .= ';options=--statement_timeout=' . (int) $c['statementTimeoutMs'];
        }
    } else {
        $dsn = sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', $u['host'], $u['port'] ?? 3306, $db);
    }
    $persistent = $c['strategy'] === 'fixed';
    // The wait starts when nginx took the request, so time queued for a free FPM child counts:
    // with one connection per child, waiting for a child is waiting for a connection.
    $arrived = (float) ($_SERVER['LAB_REQUEST_START'] ?? 0);
    $t0 = hrtime(true) - ($arrived > 0 ? (int) max(0, (microtime(true) - $arrived) * 1e9) : 0);
    try {
        $pdo = new PDO($dsn, $user, $pass, [
            PDO::ATTR_PERSISTENT => $persistent,
            PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
            PDO::ATTR_TIMEOUT => $timeoutS,
            PDO::ATTR_EMULATE_PREPARES => false,
        ]);
        if (dialect() === 'mysql' && $c['statementTimeoutMs'] > 0) {
            $pdo->exec('SET SESSION max_statement_time = ' . ($c['statementTimeoutMs'] / 1000));
        }
    } catch (PDOException $e) {
        throw dbError($e);
    }
    $wait = (hrtime(true) - $t0) / 1e9;
    $pid = getmypid();
    Shm::update(function (array $v) use ($wait, $pid, $persistent) {
        $v['inUse'] = ($v['inUse'] ?? 0) + 1;
        $v['acquires'] = ($v['acquires'] ?? 0) + 1;
        $v['waitSum'] = ($v['waitSum'] ?? 0) + $wait;
        foreach (WAIT_BUCKETS as $i => $b) {
            if ($wait <= $b) {
                $v['waitBucket'][$i] = ($v['waitBucket'][$i] ?? 0) + 1;
            }
        }
        if ($persistent) {
            // A child opens its persistent connection once: count it the first time this pid leases.
            if (!isset($v['children'][$pid])) {
                $v['children'][$pid] = true;
                $v['created'] = ($v['created'] ?? 0) + 1;
            }
        } else {
            $v['created'] = ($v['created'] ?? 0) + 1;
        }
        return $v;
    });
    register_shutdown_function(function () use ($persistent) {
        Shm::update(function (array $v) use ($persistent) {
            $v['inUse']--;
            if (!$persistent) {
                $v['closed'] = ($v['closed'] ?? 0) + 1;
            }
            return $v;
        });
    });
    return $pdo;
}

function dbError(PDOException $e): HttpError
{
    $info = $e->errorInfo ?? [];
    $driverCode = (string) ($info[1] ?? '');
    $state = dialect() === 'mysql' ? ($driverCode !== '' ? $driverCode : (string) $e->getCode()) : (string) ($info[0] ?? $e->getCode());
    $msg = $e->getMessage();
    if (preg_match('/SQLSTATE\[(\w+)\]/', $msg, $m) && dialect() === 'pgsql' && ($state === '' || $state === '0')) {
        $state = $m[1];
    }
    if (dialect() === 'mysql' && preg_match('/\[(\d{4})\]/', $msg, $m) && ($state === '' || $state === 'HY000')) {
        $state = $m[1];
    }
    Shm::update(function (array $v) use ($state) {
        $k = $state === '' ? 'none' : $state;
        $v['dbErrors'][$k] = ($v['dbErrors'][$k] ?? 0) + 1;
        return $v;
    });
    if (in_array($state, ['53300', '1040', '1203', '1226'], true) || stripos($msg, 'too many') !== false) {
        Shm::update(function (array $v) { $v['tooMany'] = ($v['tooMany'] ?? 0) + 1; return $v; });
        return new HttpError(503, 'db_too_many_clients', $msg);
    }
    if (in_array($state, ['42P01', '1146'], true)) {
        return new HttpError(503, 'lab_schema_missing', 'lab tables missing: run lab-target setup');
    }
    if (in_array($state, ['57014', '1969'], true)) {
        return new HttpError(504, 'statement_timeout', $msg);
    }
    if (in_array($state, ['42703', '1054'], true)) {
        return new HttpError(400, 'too_many_fields', "fields exceeds the lab table's fields (see lab-target setup --fields)");
    }
    if (in_array($state, ['08006', '08001', '2002', '2003', '2006', '2013'], true) || stripos($msg, 'refused') !== false) {
        return new HttpError(503, 'db_unavailable', $msg);
    }
    return new HttpError(500, 'db_error', $msg, ['sqlstate' => $state === '' ? 'none' : $state]);
}

function intParam(string $name, int $def, int $min, int $max): ?int
{
    $raw = $_GET[$name] ?? '';
    if ($raw === '') {
        return $def;
    }
    if (!preg_match('/^-?\d+$/', (string) $raw)) {
        return null;
    }
    $n = (int) $raw;
    return $n < $min || $n > $max ? null : $n;
}

function sendJson(int $status, mixed $body, bool $pooled = false): void
{
    http_response_code($status);
    header('Content-Type: application/json');
    header('X-Instance-Id: ' . cfg()['instanceId']);
    if ($pooled) {
        header('X-Pool: main');
    }
    echo json_encode($body, JSON_UNESCAPED_SLASHES);
}

// The lab's login pair (POST /login, GET /me), the same on every runtime (docs/runtimes.md).
// Tokens are stateless, so any instance accepts another's:
// "<userId>.<hex HMAC-SHA256(key "poolbench-lab", message "<userId>")>". The key is public: this
// is a lab for pooled request flows, not an authentication system.
const TOKEN_KEY = 'poolbench-lab';
// POST /login reads at most this much body; a larger one is a bad_login.
const MAX_LOGIN_BODY = 64 << 10;
// The error answers' messages, the same on every runtime.
const MSG_BAD_LOGIN = 'body must be a JSON object with string fields username and password';
const MSG_BAD_CREDENTIALS = 'unknown username or wrong password';
const MSG_UNAUTHORIZED = 'missing or invalid bearer token';
const MSG_USER_NOT_FOUND = "the token's user does not exist";

/** The bearer token of user $id. */
function token(int $id): string
{
    return $id . '.' . hash_hmac('sha256', (string) $id, TOKEN_KEY);
}

/**
 * The user id of an "Authorization: Bearer <token>" header value (scheme case-insensitive), or
 * null when it is missing, malformed or its HMAC does not verify. The id has no leading zeros
 * and fits an int32; the HMAC is 64 lowercase hex digits.
 */
function bearerUser(?string $header): ?int
{
    $v = trim($header ?? '');
    if (strlen($v) < 7 || strtolower(substr($v, 0, 7)) !== 'bearer ') {
        return null;
    }
    if (!preg_match('/^([1-9][0-9]{0,9})\.([0-9a-f]{64})$/D', trim(substr($v, 7)), $m)) {
        return null;
    }
    $id = (int) $m[1];
    if ($id > 2147483647) {
        return null;
    }
    return hash_equals(hash_hmac('sha256', $m[1], TOKEN_KEY), $m[2]) ? $id : null;
}

/**
 * POST /login's body: a JSON object whose username and password are strings (other fields are
 * ignored); null when it is too large, not JSON, not an object, or lacks either string.
 */
function parseLogin(string $raw): ?array
{
    if (strlen($raw) > MAX_LOGIN_BODY) {
        return null;
    }
    try {
        $v = json_decode($raw, false, 512, JSON_THROW_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE);
    } catch (JsonException) {
        return null;
    }
    if (!$v instanceof stdClass || !is_string($v->username ?? null) || !is_string($v->password ?? null)) {
        return null;
    }
    return ['username' => $v->username, 'password' => $v->password];
}
