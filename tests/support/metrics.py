"""An answer of `/metrics`, parsed, for tests that read the service's series."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.support.server import LiveServer, local_client

Labels = frozenset[tuple[str, str]]


class Scrape:
    """One answer of /metrics, parsed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.samples: dict[tuple[str, Labels], float] = {}
        self.families = set()
        for family in text_string_to_metric_families(text):
            self.families.add(family.name)
            for sample in family.samples:
                self.samples[(sample.name, frozenset(sample.labels.items()))] = sample.value

    def value(self, name: str, **labels: str) -> float:
        """The sum over the samples of `name` whose labels include `labels`."""
        wanted = set(labels.items())
        return sum(v for (n, ls), v in self.samples.items() if n == name and wanted <= ls)

    def label_values(self, name: str, label: str) -> set[str]:
        return {dict(ls)[label] for (n, ls), _ in self.samples.items() if n == name}


def scrape(server: LiveServer, token: str | None = None) -> Scrape:
    """`server`'s /metrics now (with `token` when the endpoint asks for one)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with local_client(timeout=10) as client:
        answer = client.get(server.url + "/metrics", headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return Scrape(answer.text)
