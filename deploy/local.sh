#!/usr/bin/env bash
# compose.yaml's topology on one machine, without containers:
#   a 6-node Redis Cluster (3 primaries, 3 replicas, made once at the first `up`), the queue
#   instances (TAVERN_LOCAL_QUEUES, each a Redis with a replica) under 3 Sentinels, 2 gateways
#   (tavern serve), 2 workers (tavern worker), nginx in front (deploy/nginx.conf with the local
#   addresses put in).
#
#   deploy/local.sh up     start whatever is not running (the first time: make the cluster too)
#   deploy/local.sh down   stop everything it started (the data stays in the state directory)
#   deploy/local.sh status one line per process: running or stopped
#
# TAVERN_LOCAL_DIR (default ./tavern-local): pids, logs, data, generated configs, ports.env.
# TAVERN_LOCAL_PORT (default 17000): ports from there on (nginx, gateways, cluster nodes, queue,
#   sentinels, worker metrics: ports.env lists them); a cluster node's bus is its port + 10000.
#   Chosen at the first `up` and kept: a later `up` with another value is refused.
# TAVERN_LOCAL_SHARDS (default 3, at most 3): the cluster's shards, each a primary with one replica
#   (2 per shard of the 6 nodes' ports). Chosen at the first `up` and kept, as the ports are.
# TAVERN_LOCAL_QUEUES (default 2, as compose.yaml): queue instances, the projector's bookkeeping
#   spread over them by match (deploy/README.md); their masters at the sentinels are tavern,
#   tavern-2, ... (QUEUE_MASTER). The first's ports follow the cluster's; each further one's are
#   from TAVERN_LOCAL_PORT + 40 on. Chosen at the first `up` and kept, as the ports.
# TAVERN_LOCAL_NODE_TIMEOUT_MS (default 5000, as compose.yaml): cluster-node-timeout and the
#   sentinels' down-after-milliseconds, so how soon a dead primary's replica takes over.
# TAVERN (default: tavern on PATH, else .venv/bin/tavern): the command the gateways and workers run.
# TAVERN_API_KEYS (required, as compose.yaml requires it): the trusted frontends' keys, comma-separated.
# The gateways and workers get deploy/tavern.env (compose's settings: the kit's, limits on) and the
# rest of the environment as it is at `up` (TAVERN_* settings), which wins over the file.
set -euo pipefail
PATH="$PATH:/usr/sbin:/sbin"  # nginx lives in sbin, off a user's PATH

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$(mkdir -p "${TAVERN_LOCAL_DIR:-tavern-local}" && cd "${TAVERN_LOCAL_DIR:-tavern-local}" && pwd)"
node_timeout_ms="${TAVERN_LOCAL_NODE_TIMEOUT_MS:-5000}"

fail() { echo "local.sh: $*" >&2; exit 1; }

need() {
    for program in "$@"; do
        command -v "$program" >/dev/null 2>&1 || fail "$program is missing (tests/system-deps.sh says which package has it)"
    done
}

ports() {
    # the ports, chosen once: a later `up` reuses them (the cluster's nodes.conf knows them)
    if [ ! -f "$dir/ports.env" ]; then
        local base="${TAVERN_LOCAL_PORT:-17000}"
        [[ "$base" =~ ^[0-9]+$ ]] && [ "$base" -ge 1024 ] && [ "$base" -le 55000 ] ||
            fail "TAVERN_LOCAL_PORT=$base: a port from 1024 to 55000 (a cluster node's bus is its port + 10000)"
        local queues="${TAVERN_LOCAL_QUEUES:-2}" pairs="$((base + 9)):$((base + 10))" i
        [[ "$queues" =~ ^[1-8]$ ]] || fail "TAVERN_LOCAL_QUEUES=$queues: a number of queue instances from 1 to 8"
        for ((i = 1; i < queues; i++)); do pairs+=" $((base + 38 + 2 * i)):$((base + 39 + 2 * i))"; done
        {
            echo "NGINX=$base"
            echo "GATEWAYS='$((base + 1)) $((base + 2))'"
            echo "NODES='$((base + 3)) $((base + 4)) $((base + 5)) $((base + 6)) $((base + 7)) $((base + 8))'"
            echo "QUEUES='$pairs'"  # each instance's primary:replica, as first started
            echo "QUEUE='${pairs//:/ }'"  # every queue Redis
            echo "SENTINELS='$((base + 11)) $((base + 12)) $((base + 13))'"
            echo "WORKERS='$((base + 14)) $((base + 15))'"
            echo "BASE=$base"
            local shards="${TAVERN_LOCAL_SHARDS:-3}"
            [[ "$shards" =~ ^[1-3]$ ]] || fail "TAVERN_LOCAL_SHARDS=$shards: 1, 2 or 3 shards"
            echo "SHARDS=$shards"
        } >"$dir/ports.env"
    fi
    # shellcheck source=/dev/null
    . "$dir/ports.env"
    [ -z "${TAVERN_LOCAL_PORT:-}" ] || [ "$TAVERN_LOCAL_PORT" = "$BASE" ] ||
        fail "$dir was set up on ports from $BASE, not $TAVERN_LOCAL_PORT: down, then remove $dir to change them"
    SHARDS="${SHARDS:-3}"  # a ports.env from before the setting
    [ -z "${TAVERN_LOCAL_SHARDS:-}" ] || [ "$TAVERN_LOCAL_SHARDS" = "$SHARDS" ] ||
        fail "$dir was set up with $SHARDS shards, not $TAVERN_LOCAL_SHARDS: down, then remove $dir to change them"
    NODES="$(echo $NODES | cut -d' ' -f1-$((SHARDS * 2)))"  # a primary and a replica per shard
    local pairs=($QUEUES)
    [ -z "${TAVERN_LOCAL_QUEUES:-}" ] || [ "$TAVERN_LOCAL_QUEUES" = "${#pairs[@]}" ] ||
        fail "$dir was set up with ${#pairs[@]} queue instances, not $TAVERN_LOCAL_QUEUES: down, then remove $dir to change them"
}

masters() {  # the queue instances' master names at the sentinels, one a line, in QUEUES' order
    local pairs=($QUEUES) i
    for ((i = 0; i < ${#pairs[@]}; i++)); do
        if [ "$i" = 0 ]; then echo tavern; else echo "tavern-$((i + 1))"; fi
    done
}

alive() {  # the process of a pid file runs (and is still the one started: its command line names $2)
    local pidfile="$dir/pids/$1.pid"
    [ -f "$pidfile" ] || return 1
    local pid
    pid="$(cat "$pidfile")"
    [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$2"
}

port_free() {  # nothing listens on 127.0.0.1:$1
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

launch() {  # launch NAME MARK COMMAND...: started in the background, its pid kept, its output logged
    local name="$1" mark="$2"
    shift 2
    if alive "$name" "$mark"; then
        return 0
    fi
    "$@" >>"$dir/logs/$name.log" 2>&1 </dev/null &
    echo $! >"$dir/pids/$name.pid"
    echo "local.sh: started $name (pid $!)"
}

until_true() {  # until_true SECONDS WHAT COMMAND...: retried every 0.1 s
    local tries=$(($1 * 10)) what="$2" i
    shift 2
    for ((i = 0; i < tries; i++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    fail "$what (see $dir/logs/)"
}

answers() { [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ]; }

cluster_ok() { redis-cli -p "$1" cluster info 2>/dev/null | grep -q "cluster_state:ok"; }

cluster_known() { redis-cli -p "$1" cluster info 2>/dev/null | grep -q "cluster_known_nodes:$((SHARDS * 2))"; }

replicates() { [ "$(redis-cli -p "$1" cluster replicate "$2" 2>/dev/null)" = OK ]; }

healthy() (  # a gateway's /healthz answers 200 (bash's /dev/tcp, in a subshell: no curl needed)
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    read -r -t 2 status <&3 || exit 1
    [[ "$status" == *" 200 "* ]]
)

tavern_command() {
    if [ -n "${TAVERN:-}" ]; then
        echo "$TAVERN"
    elif command -v tavern >/dev/null 2>&1; then
        command -v tavern
    elif [ -x "$here/../.venv/bin/tavern" ]; then
        echo "$here/../.venv/bin/tavern"
    else
        fail "no tavern command: run make serve once (it makes .venv), or set TAVERN"
    fi
}

check_port() {  # a port this topology's process $1 will take must be free (or held by that process)
    alive "$1" "$2" || port_free "$3" || fail "port $3 (for $1) is taken by another program: choose TAVERN_LOCAL_PORT"
}

check_ports() {  # before starting anything
    local port
    for port in $NODES; do
        check_port "node-$port" ":$port" "$port"
        check_port "node-$port" ":$port" $((port + 10000))  # its cluster bus
    done
    for port in $QUEUE; do check_port "queue-$port" ":$port" "$port"; done
    for port in $SENTINELS; do check_port "sentinel-$port" ":$port" "$port"; done
    for port in $GATEWAYS; do check_port "gateway-$port" "--port $port" "$port"; done
    for port in $WORKERS; do check_port "worker-$port" worker "$port"; done
    check_port nginx nginx "$NGINX"
}

start_cluster() {
    local port
    for port in $NODES; do
        mkdir -p "$dir/data/node-$port"
        # as compose.yaml's nodes: AOF every second (a node restarted keeps what it had), and a
        # replica's sync started at once (Redis waits 5 s for more replicas by default: with
        # WAIT on, a promoted replica's shard answers 503 until its own replica has synced)
        launch "node-$port" ":$port" redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/data/node-$port" \
            --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout "$node_timeout_ms" \
            --appendonly yes --appendfsync everysec --save "" --repl-diskless-sync-delay 0
    done
    for port in $NODES; do until_true 10 "redis-server on $port did not answer" answers "$port"; done
    set -- $NODES
    if ! cluster_known "$1"; then  # the first time only: later the nodes find each other from nodes.conf
        make_cluster
    fi
    for port in $NODES; do until_true 60 "the cluster is not ok on $port" cluster_ok "$port"; done
}

make_cluster() {
    # what `redis-cli --cluster create --cluster-replicas 1` does, which refuses fewer than 3
    # primaries: the first SHARDS nodes primaries, each with the slots of its share, the others
    # their replicas in the same order
    local all=($NODES) i id
    for ((i = 0; i < ${#all[@]}; i++)); do redis-cli -p "${all[i]}" cluster set-config-epoch $((i + 1)) >/dev/null; done
    for ((i = 1; i < ${#all[@]}; i++)); do redis-cli -p "${all[0]}" cluster meet 127.0.0.1 "${all[i]}" >/dev/null; done
    for ((i = 0; i < SHARDS; i++)); do
        redis-cli -p "${all[i]}" cluster addslotsrange $((16384 * i / SHARDS)) $((16384 * (i + 1) / SHARDS - 1)) >/dev/null
    done
    until_true 30 "the cluster's nodes did not meet" cluster_known "${all[0]}"
    for ((i = 0; i < SHARDS; i++)); do
        id="$(redis-cli -p "${all[i]}" cluster myid)"
        until_true 30 "node ${all[SHARDS + i]} did not become ${all[i]}'s replica" replicates "${all[SHARDS + i]}" "$id"
    done
}

start_queue() {
    local pair primary port master names=() pairs=($QUEUES) i
    mapfile -t names < <(masters)
    for pair in $QUEUES; do
        primary="${pair%%:*}"
        for port in ${pair/:/ }; do
            mkdir -p "$dir/data/queue-$port"
            # a config file, not arguments: Sentinel rewrites it when it turns a primary into a
            # replica (or back), so a restart keeps the role it was given
            if [ ! -f "$dir/queue-$port.conf" ]; then
                printf 'port %s\nbind 127.0.0.1\ndir %s\nappendonly yes\nsave ""\nrepl-diskless-sync-delay 0\n' \
                    "$port" "$dir/data/queue-$port" >"$dir/queue-$port.conf"
                [ "$port" = "$primary" ] || echo "replicaof 127.0.0.1 $primary" >>"$dir/queue-$port.conf"
            fi
            launch "queue-$port" ":$port" redis-server "$dir/queue-$port.conf"
        done
    done
    for port in $QUEUE; do until_true 10 "redis-server on $port did not answer" answers "$port"; done
    for port in $SENTINELS; do
        if [ ! -f "$dir/sentinel-$port.conf" ]; then  # Sentinel keeps its state in it
            printf 'port %s\nbind 127.0.0.1\ndir %s\n' "$port" "$dir" >"$dir/sentinel-$port.conf"
            for ((i = 0; i < ${#pairs[@]}; i++)); do
                master="${names[$i]}" primary="${pairs[$i]%%:*}"
                printf 'sentinel monitor %s 127.0.0.1 %s 2\nsentinel down-after-milliseconds %s %s\nsentinel failover-timeout %s %s\n' \
                    "$master" "$primary" "$master" "$node_timeout_ms" "$master" $((node_timeout_ms * 5)) >>"$dir/sentinel-$port.conf"
            done
        fi
        launch "sentinel-$port" ":$port" redis-sentinel "$dir/sentinel-$port.conf"
    done
    for port in $SENTINELS; do
        for master in "${names[@]}"; do
            until_true 30 "sentinel $port does not know the queue's master $master" \
                bash -c "redis-cli -p $port sentinel get-master-addr-by-name $master | grep -q 127.0.0.1"
        done
    done
}

settings() {  # deploy/tavern.env, each setting the environment does not give already
    local name value
    while IFS='=' read -r name value; do
        [[ "$name" =~ ^[A-Z_][A-Z0-9_]*$ ]] || continue  # a comment or a blank line
        [ -n "${!name+set}" ] || export "$name=$value"
    done <"$here/tavern.env"
    # the client's address from nginx's X-Forwarded-For, and from nobody else's (nginx is on 127.0.0.1)
    export FORWARDED_ALLOW_IPS=127.0.0.1
}

start_services() {
    local tavern node_list="" sentinel_list="" port
    read -r -a tavern <<<"$(tavern_command)"
    for port in $NODES; do node_list+="${node_list:+,}127.0.0.1:$port"; done
    for port in $SENTINELS; do sentinel_list+="${sentinel_list:+,}127.0.0.1:$port"; done
    export REDIS_URL="redis+cluster://$node_list" QUEUE_SENTINELS="$sentinel_list"
    QUEUE_MASTER="$(masters | paste -sd, -)"  # this topology's instances, whatever tavern.env names
    export QUEUE_MASTER
    export TAVERN_ARCHIVE_DIR="${TAVERN_ARCHIVE_DIR:-$dir/archive}"
    for port in $GATEWAYS; do
        launch "gateway-$port" "--port $port" "${tavern[@]}" serve --host 127.0.0.1 --port "$port"
    done
    for port in $WORKERS; do
        TAVERN_WORKER_METRICS_PORT="$port" launch "worker-$port" "worker" "${tavern[@]}" worker
    done
    for port in $GATEWAYS; do until_true 60 "the gateway on $port is not healthy" healthy "$port"; done
}

nginx_config() {
    # deploy/nginx.conf (compose's, the one source of the routing), with the local addresses put
    # in, and its pid, logs and temporary files in the state directory (no root needed)
    local gateways=($GATEWAYS)
    mkdir -p "$dir/nginx"
    sed -e "s/gateway-1:8000/127.0.0.1:${gateways[0]}/; s/gateway-2:8000/127.0.0.1:${gateways[1]}/" \
        -e "s/listen 8080/listen 127.0.0.1:$NGINX/" \
        -e "s|^http {|http {\n  log_format routed '\$upstream_addr \$status \$request_method \$uri';\n  access_log $dir/logs/nginx-access.log routed;\n  client_body_temp_path $dir/nginx/body;\n  proxy_temp_path $dir/nginx/proxy;\n  fastcgi_temp_path $dir/nginx/fastcgi;\n  uwsgi_temp_path $dir/nginx/uwsgi;\n  scgi_temp_path $dir/nginx/scgi;|" \
        "$here/nginx.conf" >"$dir/nginx.conf.new"
    grep -q "127.0.0.1:${gateways[1]}" "$dir/nginx.conf.new" || fail "deploy/nginx.conf no longer names gateway-1:8000 and gateway-2:8000"
}

start_nginx() {
    nginx_config
    # nginx.conf's worker_rlimit_nofile (10,000 streams): its workers may raise their limit only up
    # to the hard one, which root can lift here; others keep theirs (nginx logs a setrlimit alert)
    ulimit -Hn 65536 2>/dev/null || true
    if alive nginx "nginx"; then
        # reloaded only for a new configuration: a reload closes the idle keep-alive connections of
        # the old workers, and a client's request sent on one just then is lost (a read error)
        if ! cmp -s "$dir/nginx.conf.new" "$dir/nginx.conf"; then
            mv "$dir/nginx.conf.new" "$dir/nginx.conf"
            nginx -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/pids/nginx.pid; error_log $dir/logs/nginx.log;" -s reload 2>>"$dir/logs/nginx.log"
        fi
        return 0
    fi
    mv "$dir/nginx.conf.new" "$dir/nginx.conf"
    nginx -t -q -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/pids/nginx.pid; error_log $dir/logs/nginx.log;" 2>>"$dir/logs/nginx.log" ||
        fail "nginx refused $dir/nginx.conf: see $dir/logs/nginx.log"
    nginx -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/pids/nginx.pid; error_log $dir/logs/nginx.log;"
    until_true 10 "nginx did not start" healthy "$NGINX"
    echo "local.sh: started nginx (pid $(cat "$dir/pids/nginx.pid"))"
}

up() {
    need redis-server redis-sentinel redis-cli nginx
    [ -n "${TAVERN_API_KEYS:-}" ] || fail "set TAVERN_API_KEYS to the frontends' keys, comma-separated (as compose.yaml)"
    settings
    mkdir -p "$dir/pids" "$dir/logs" "$dir/data"
    ports
    check_ports
    start_cluster
    start_queue
    start_services
    start_nginx
    echo "local.sh: up: http://127.0.0.1:$NGINX/ (state in $dir)"
}

exited() {  # the process is gone, or has exited and only waits to be reaped (a zombie: some
    # containers' init reaps orphans seconds later, which cost every stop 2 s)
    local state
    state="$(sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)" || return 0
    [ -z "$state" ] || [ "$state" = Z ]
}

stop() {  # stop NAME MARK [NAME MARK...]: SIGTERM to each at once, SIGKILL to any still up after 15 s
    local names=() pids=() name pid running
    while [ $# -gt 0 ]; do
        if alive "$1" "$2"; then
            pid="$(cat "$dir/pids/$1.pid")"
            kill -TERM "$pid" 2>/dev/null || true
            names+=("$1")
            pids+=("$pid")
        fi
        rm -f "$dir/pids/$1.pid"
        shift 2
    done
    for ((i = 0; i < 150; i++)); do
        running=0
        for pid in "${pids[@]}"; do exited "$pid" || running=1; done
        [ "$running" = 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do exited "$pid" || kill -KILL "$pid" 2>/dev/null || true; done
    for name in "${names[@]}"; do echo "local.sh: stopped $name"; done
}

down() {
    [ -f "$dir/ports.env" ] || { echo "local.sh: nothing set up in $dir"; return 0; }
    ports
    local port gateways=() workers=() redis=()
    for port in $GATEWAYS; do gateways+=("gateway-$port" "--port $port"); done
    for port in $WORKERS; do workers+=("worker-$port" worker); done
    for port in $SENTINELS; do redis+=("sentinel-$port" ":$port"); done
    for port in $QUEUE; do redis+=("queue-$port" ":$port"); done
    for port in $NODES; do redis+=("node-$port" ":$port"); done
    # the front first, then what serves it, the Redis last: each tier stopped at once
    stop nginx nginx
    stop "${gateways[@]}" "${workers[@]}"
    stop "${redis[@]}"
    echo "local.sh: down (the data stays in $dir)"
}

status() {
    [ -f "$dir/ports.env" ] || { echo "local.sh: nothing set up in $dir"; return 0; }
    ports
    local name
    for pidfile in "$dir"/pids/*.pid; do
        [ -e "$pidfile" ] || continue
        name="$(basename "$pidfile" .pid)"
        if [ -d "/proc/$(cat "$pidfile")" ]; then echo "$name running"; else echo "$name stopped"; fi
    done
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    status) status ;;
    *) fail "usage: deploy/local.sh up|down|status" ;;
esac
