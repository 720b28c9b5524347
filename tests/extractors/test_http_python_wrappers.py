"""Python wrappers: a client class whose base is set in `__init__` and whose helper takes the
path; each public method (and module-level callers) is where the concrete call sits."""

from __future__ import annotations

from jsrepo import extract

FILES = {
    "tides/client.py": """
        import os

        import requests


        class TideClient:
            def __init__(self):
                self.base = os.environ["TIDES_API"]
                self.session = requests.Session()

            def _get(self, path):
                return self.session.get(self.base + path, timeout=5)

            def _send(self, path, body):
                return requests.post(f"{self.base}{path}", json=body)

            def station(self, station_id):
                return self._get(f"/stations/{station_id}")

            def report(self, station_id, level):
                return self._send(path=f"/stations/{station_id}/reports", body={"l": level})
        """,
}


def test_python_client_class_wrappers(tmp_path):
    f = extract(tmp_path, FILES)
    calls = {(n.file, n.line): n for n in f.raw.nodes if n.kind == "http_call"}
    station = calls[("tides/client.py", 18)]
    assert station.name == "GET {TIDES_API}/stations/{station_id}"
    assert (station.attrs["env_var"], station.attrs["hops"]) == (
        "TIDES_API",
        ["tides/client.py:12"],
    )
    report = calls[("tides/client.py", 21)]
    assert report.name == "POST {TIDES_API}/stations/{station_id}/reports"
    assert report.attrs["hops"] == ["tides/client.py:15"]
    assert ("tides/client.py", 12) not in calls and ("tides/client.py", 15) not in calls
    assert not [u for u in f.unresolved if u.kind == "http_call"]


def test_a_property_and_a_spread_tuple_carry_the_request_through_layers(tmp_path):
    # the base is a `@property` of a settings object, trimmed of its slash; the request is
    # prepared as a tuple and sent by spreading it (`send(*prepared)`)
    f = extract(tmp_path, {
        "requirements.txt": "requests\n",
        "harbour/transport.py": """
            import requests


            class Settings:
                def __init__(self):
                    self._host = "https://harbour.example.test/"

                @property
                def host(self):
                    return self._host.rstrip("/")


            class Transport:
                def __init__(self):
                    self.settings = Settings()

                def prepare(self, method, path):
                    return (method, self.settings.host + path)

                def send(self, method, url):
                    return requests.request(method, url, timeout=5)

                def berths(self, quay):
                    prepared = self.prepare("GET", f"/quays/{quay}/berths")
                    return self.send(*prepared)
            """,
        "harbour/app.py": """
            from harbour.transport import Transport


            def free_berths(quay):
                return Transport().berths(quay)
            """,
    })  # fmt: skip
    assert "GET https://harbour.example.test/quays/{quay}/berths" in f.kind("http_call")
