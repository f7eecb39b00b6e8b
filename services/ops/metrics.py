"""Prometheus metrics, kept in process and written as the text exposition format."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Callable


class Counter:
    def __init__(self, name: str, help: str, label: str) -> None:
        self.name, self.help, self.label = name, help, label
        self.values: dict[str, float] = defaultdict(float)

    def inc(self, label: str, amount: float = 1.0) -> None:
        self.values[label] += amount

    def text(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        lines += [f'{self.name}{{{self.label}="{key}"}} {value}' for key, value in sorted(self.values.items())]
        return lines


class Histogram:
    BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self.counts = [0] * (len(self.BUCKETS) + 1)
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(self.BUCKETS, seconds)] += 1
        self.sum += seconds

    def text(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        running = 0
        for bound, count in zip(self.BUCKETS, self.counts, strict=False):
            running += count
            lines.append(f'{self.name}_bucket{{le="{bound}"}} {running}')
        total = running + self.counts[-1]
        lines += [
            f'{self.name}_bucket{{le="+Inf"}} {total}',
            f"{self.name}_sum {self.sum}",
            f"{self.name}_count {total}",
        ]
        return lines


class Gauge:
    def __init__(self, name: str, help: str, read: Callable[[], float]) -> None:
        self.name, self.help, self.read = name, help, read

    def text(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} gauge", f"{self.name} {self.read()}"]


class Metrics:
    def __init__(self) -> None:
        self.commands = Counter("tavern_commands_total", "Commands answered, by outcome.", "outcome")
        self.append_seconds = Histogram("tavern_append_seconds", "Time of one conditional append (EVALSHA).")
        self.projection_lag = Histogram(
            "tavern_projection_lag_seconds", "From an event's append to the notice of its views, seen by a gateway."
        )
        self.open_streams = 0
        self._streams = Gauge("tavern_open_streams", "SSE streams open on this gateway.", lambda: self.open_streams)

    def text(self) -> str:
        lines: list[str] = []
        for metric in (self.commands, self.append_seconds, self.projection_lag, self._streams):
            lines += metric.text()
        return "\n".join(lines) + "\n"
