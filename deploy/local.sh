#!/usr/bin/env bash
# compose.yaml's topology on one machine, without containers:
#   a 6-node Redis Cluster (3 primaries, 3 replicas, made once by redis-cli --cluster create), the
#   queue's Redis with a replica and 3 Sentinels, 2 gateways (tavern serve), 2 workers (tavern
#   worker), nginx in front (deploy/nginx.conf with the local addresses put in).
#
#   deploy/local.sh up     start whatever is not running (the first time: make the cluster too)
#   deploy/local.sh down   stop everything it started (the data stays in the state directory)
#   deploy/local.sh status one line per process: running or stopped
#
# TAVERN_LOCAL_DIR (default ./tavern-local): pids, logs, data, generated configs, ports.env.
# TAVERN_LOCAL_PORT (default 17000): ports from there on (nginx, gateways, cluster nodes, queue,
#   sentinels, worker metrics: ports.env lists them); a cluster node's bus is its port + 10000.
#   Chosen at the first `up` and kept: a later `up` with another value is refused.
# TAVERN_LOCAL_NODE_TIMEOUT_MS (default 5000, as compose.yaml): cluster-node-timeout and the
#   sentinels' down-after-milliseconds, so how soon a dead primary's replica takes over.
# TAVERN (default: tavern on PATH, else .venv/bin/tavern): the command the gateways and workers run.
# The gateways and workers get the rest of the environment (TAVERN_* settings) as it is at `up`.
set -euo pipefail
PATH="$PATH:/usr/sbin:/sbin"  # nginx lives in sbin, off a user's PATH

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$(mkdir -p "${TAVERN_LOCAL_DIR:-tavern-local}" && cd "${TAVERN_LOCAL_DIR:-tavern-local}" && pwd)"
node_timeout_ms="${TAVERN_LOCAL_NODE_TIMEOUT_MS:-5000}"
master=tavern

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
        {
            echo "NGINX=$base"
            echo "GATEWAYS='$((base + 1)) $((base + 2))'"
            echo "NODES='$((base + 3)) $((base + 4)) $((base + 5)) $((base + 6)) $((base + 7)) $((base + 8))'"
            echo "QUEUE='$((base + 9)) $((base + 10))'"
            echo "SENTINELS='$((base + 11)) $((base + 12)) $((base + 13))'"
            echo "WORKERS='$((base + 14)) $((base + 15))'"
            echo "BASE=$base"
        } >"$dir/ports.env"
    fi
    # shellcheck source=/dev/null
    . "$dir/ports.env"
    [ -z "${TAVERN_LOCAL_PORT:-}" ] || [ "$TAVERN_LOCAL_PORT" = "$BASE" ] ||
        fail "$dir was set up on ports from $BASE, not $TAVERN_LOCAL_PORT: down, then remove $dir to change them"
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
    local tries=$(($1 * 10)) what="$2"
    shift 2
    for ((i = 0; i < tries; i++)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    fail "$what (see $dir/logs/)"
}

answers() { [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ]; }

cluster_ok() { redis-cli -p "$1" cluster info 2>/dev/null | grep -q "cluster_state:ok"; }

cluster_known() { redis-cli -p "$1" cluster info 2>/dev/null | grep -q "cluster_known_nodes:6"; }

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
    local nodes=() port
    for port in $NODES; do
        mkdir -p "$dir/data/node-$port"
        # as compose.yaml's nodes: AOF every second (a node restarted keeps what it had), and a
        # replica's sync started at once (Redis waits 5 s for more replicas by default: with
        # WAIT on, a promoted replica's shard answers 503 until its own replica has synced)
        launch "node-$port" ":$port" redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/data/node-$port" \
            --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout "$node_timeout_ms" \
            --appendonly yes --appendfsync everysec --save "" --repl-diskless-sync-delay 0
        nodes+=("127.0.0.1:$port")
    done
    for port in $NODES; do until_true 10 "redis-server on $port did not answer" answers "$port"; done
    set -- $NODES
    if ! cluster_known "$1"; then  # the first time only: later the nodes find each other from nodes.conf
        redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >>"$dir/logs/cluster-create.log" 2>&1 ||
            fail "redis-cli --cluster create failed: see $dir/logs/cluster-create.log"
    fi
    for port in $NODES; do until_true 60 "the cluster is not ok on $port" cluster_ok "$port"; done
}

start_queue() {
    set -- $QUEUE
    local primary="$1" port
    for port in $QUEUE; do
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
    for port in $QUEUE; do until_true 10 "redis-server on $port did not answer" answers "$port"; done
    for port in $SENTINELS; do
        if [ ! -f "$dir/sentinel-$port.conf" ]; then  # Sentinel keeps its state in it
            printf 'port %s\nbind 127.0.0.1\ndir %s\nsentinel monitor %s 127.0.0.1 %s 2\nsentinel down-after-milliseconds %s %s\nsentinel failover-timeout %s %s\n' \
                "$port" "$dir" "$master" "$primary" "$master" "$node_timeout_ms" "$master" $((node_timeout_ms * 5)) >"$dir/sentinel-$port.conf"
        fi
        launch "sentinel-$port" ":$port" redis-sentinel "$dir/sentinel-$port.conf"
    done
    for port in $SENTINELS; do
        until_true 30 "sentinel $port does not know the queue's master" \
            bash -c "redis-cli -p $port sentinel get-master-addr-by-name $master | grep -q 127.0.0.1"
    done
}

start_services() {
    local tavern node_list="" sentinel_list="" port
    read -r -a tavern <<<"$(tavern_command)"
    for port in $NODES; do node_list+="${node_list:+,}127.0.0.1:$port"; done
    for port in $SENTINELS; do sentinel_list+="${sentinel_list:+,}127.0.0.1:$port"; done
    export REDIS_URL="redis+cluster://$node_list" QUEUE_SENTINELS="$sentinel_list" QUEUE_MASTER="$master"
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
        -e "s/listen 8080;/listen 127.0.0.1:$NGINX;/" \
        -e "s|^http {|http {\n  log_format routed '\$upstream_addr \$status \$request_method \$uri';\n  access_log $dir/logs/nginx-access.log routed;\n  client_body_temp_path $dir/nginx/body;\n  proxy_temp_path $dir/nginx/proxy;\n  fastcgi_temp_path $dir/nginx/fastcgi;\n  uwsgi_temp_path $dir/nginx/uwsgi;\n  scgi_temp_path $dir/nginx/scgi;|" \
        "$here/nginx.conf" >"$dir/nginx.conf"
    grep -q "127.0.0.1:${gateways[1]}" "$dir/nginx.conf" || fail "deploy/nginx.conf no longer names gateway-1:8000 and gateway-2:8000"
}

start_nginx() {
    nginx_config
    if alive nginx "nginx"; then
        nginx -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/pids/nginx.pid; error_log $dir/logs/nginx.log;" -s reload 2>>"$dir/logs/nginx.log"
        return 0
    fi
    nginx -t -q -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/pids/nginx.pid; error_log $dir/logs/nginx.log;" 2>>"$dir/logs/nginx.log" ||
        fail "nginx refused $dir/nginx.conf: see $dir/logs/nginx.log"
    nginx -p "$dir" -c "$dir/nginx.conf" -g "pid $dir/pids/nginx.pid; error_log $dir/logs/nginx.log;"
    until_true 10 "nginx did not start" healthy "$NGINX"
    echo "local.sh: started nginx (pid $(cat "$dir/pids/nginx.pid"))"
}

up() {
    need redis-server redis-sentinel redis-cli nginx
    mkdir -p "$dir/pids" "$dir/logs" "$dir/data"
    ports
    check_ports
    start_cluster
    start_queue
    start_services
    start_nginx
    echo "local.sh: up: http://127.0.0.1:$NGINX/ (state in $dir)"
}

stop() {  # stop NAME MARK: SIGTERM, then SIGKILL after 15 s
    local name="$1" pidfile="$dir/pids/$1.pid"
    if alive "$name" "$2"; then
        local pid
        pid="$(cat "$pidfile")"
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < 150; i++)); do
            [ -d "/proc/$pid" ] || break
            sleep 0.1
        done
        [ ! -d "/proc/$pid" ] || kill -KILL "$pid" 2>/dev/null || true
        echo "local.sh: stopped $name"
    fi
    rm -f "$pidfile"
}

down() {
    [ -f "$dir/ports.env" ] || { echo "local.sh: nothing set up in $dir"; return 0; }
    ports
    local port
    stop nginx nginx
    for port in $GATEWAYS; do stop "gateway-$port" "--port $port"; done
    for port in $WORKERS; do stop "worker-$port" worker; done
    for port in $SENTINELS; do stop "sentinel-$port" ":$port"; done
    for port in $QUEUE; do stop "queue-$port" ":$port"; done
    for port in $NODES; do stop "node-$port" ":$port"; done
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
