"""The ingest benchmark's paired comparison: two disjoint copies of the same edges, and
a throughput ratio that reads the right way round."""

from bench.ingest import Paired, prefixed


def test_prefixed_copies_keep_the_shape_and_share_no_id() -> None:
    chunk = [("l00.t1", "l01.t2"), ("l00.t1", "l01.t3")]
    http, raw = prefixed(chunk, "http."), prefixed(chunk, "raw.")
    assert http == [("http.l00.t1", "http.l01.t2"), ("http.l00.t1", "http.l01.t3")]
    assert not {i for pair in http for i in pair} & {i for pair in raw for i in pair}


def test_paired_ratio_is_throughput_http_over_raw() -> None:
    slower_service = Paired(http=[2.0, 2.0], raw=[1.0, 1.0])
    assert slower_service.ratio == 0.5
    assert Paired(http=[1.0, 3.0], raw=[2.0, 2.0]).ratio == 1.0  # totals, not per request
