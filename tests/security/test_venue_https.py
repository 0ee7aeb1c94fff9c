"""Issue 31: `puzzlecomp serve --venue --tls-cert --tls-key` serves HTTPS with the organiser's
certificate, so the judges' phones get a secure context (their screen's service worker); a
certificate and key that do not belong together are refused before anything starts."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from puzzlecomp.judging.offline_app import RELEASE_HEADER
from tests.security.test_venue_mode import PYTHON_BIN, Venue

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None,
                                reason="the test makes its certificates with openssl")


def self_signed(folder: Path, name: str = "puzzles.hall") -> tuple[Path, Path]:
    """A certificate for `name` and 127.0.0.1 and its key, as an organiser might make one."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={name}", "-addext",
                    f"subjectAltName=DNS:{name},IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_the_venue_serves_https_with_the_organisers_certificate(tmp_path):
    cert, key = self_signed(tmp_path)
    venue = Venue(tmp_path / "data", tls=(cert, key))
    venue.start()
    try:
        home = httpx.get(f"{venue.url}/", verify=venue.verify)
        assert home.status_code == 200
        assert home.url.scheme == "https"
        worker = httpx.get(f"{venue.url}/judge/service-worker.js", verify=venue.verify)
        assert worker.status_code == 200
        assert worker.headers["service-worker-allowed"] == "/judge/"
        assert f'"releaseHeader": "{RELEASE_HEADER}"' in worker.text
        # Only the organiser's certificate is trusted: an unknown one is refused.
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{venue.url}/", verify=True)
        # The sign-in cookie is Secure over HTTPS.
        login = httpx.get(f"{venue.url}/accounts/login/", verify=venue.verify)
        assert "secure" in login.headers["set-cookie"].lower()
    finally:
        output = venue.stop()
    assert f"https://puzzles.hall:{venue.port}/" in output
    assert "Plain HTTP" not in output


def test_plain_http_venue_says_what_phones_miss(tmp_path):
    venue = Venue(tmp_path / "data")
    venue.start()
    output = venue.stop()
    assert "Plain HTTP: judges' phones cannot reopen their screen without the network" in output


@pytest.mark.parametrize("problem", ["key of another certificate", "only the certificate",
                                     "no such file"])
def test_a_certificate_and_key_that_do_not_go_together_are_refused_at_once(tmp_path, problem):
    cert, _key = self_signed(tmp_path)
    _other_cert, other_key = self_signed(tmp_path, "other.hall")
    args = {"key of another certificate": ["--tls-cert", str(cert), "--tls-key", str(other_key)],
            "only the certificate": ["--tls-cert", str(cert)],
            "no such file": ["--tls-cert", str(tmp_path / "missing.crt"), "--tls-key",
                             str(other_key)]}[problem]
    done = subprocess.run([str(PYTHON_BIN / "puzzlecomp"), "serve", "--venue", "--no-serve",
                           *args], capture_output=True, text=True, timeout=120,
                          env={"PUZZLECOMP_DATA_DIR": str(tmp_path / "data"),
                               "PATH": str(Path(sys.executable).parent)})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    expected = {"key of another certificate": "not a PEM certificate and its unencrypted "
                                              "private key",
                "only the certificate": "--tls-cert and --tls-key go together",
                "no such file": "missing.crt: no such file"}[problem]
    assert expected in done.stderr
    assert not (tmp_path / "data").exists()
