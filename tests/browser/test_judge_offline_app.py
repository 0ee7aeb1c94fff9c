"""Issue 31: the judge's screen survives a reload without the network. A service worker keeps
the screen on the phone (a persistent browser profile, as a phone keeps it between launches),
the round's data and the records wait in the phone's storage, and everything is stored once
when the network is back; a new release replaces the phone's copy whole; a full or cleared
storage and plain HTTP are said to the judge, and no record vanishes in silence."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from puzzlecomp.championships.models import JudgeDevice, Result, ResultChange, Round
from puzzlecomp.championships.services.devices import device_revoke
from tests.browser.conftest import ARGS, CHROMIUM, screenshot, wait_until
from tests.browser.test_judge_phone import entry, outbox_records, pair, record_finish
from tests.judging.support import seat_round
from tests.support import published_championship

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# The longest wait between two tries of the outbox (judge-outbox.js retryDelay) and a margin.
BACK_ONLINE_MS = 18_000


@pytest.fixture
def running_round() -> Round:
    """WJPC's individual first round, running for 10 minutes: entries 1-4 at tables 1-2."""
    return seat_round(published_championship("WJPC Offline App Test"), "individual", "first",
                      tables=2)


def phone(browser, profile: Path, base_url: str, *, offline: bool = False,
          language: str = "en"):
    """A phone's browser with its own profile kept on disk (closing it keeps its storage)."""
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=ARGS, base_url=base_url, offline=offline,
        locale=language, **PHONE)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
    return context, context.pages[0] if context.pages else context.new_page()


def screen_kept(page) -> None:
    """Wait until the service worker keeps this page's release of the screen."""
    expect(page.locator("#judge")).to_have_attribute("data-release", re.compile(r".+-\w{12}$"))
    release = page.locator("#judge").get_attribute("data-release")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(page, f"""caches.keys().then(async (names) => names.length === 1
        && names[0] === "puzzlecomp-judge-{release}"
        && (await (await caches.open(names[0])).keys()).some(
             (r) => new URL(r.url).pathname === location.pathname))""")


def from_the_phones_copy(response) -> bool:
    """The service worker answered with the screen it keeps (judge-sw.js marks it)."""
    return (response is not None and response.from_service_worker
            and "x-puzzlecomp-copy" in response.headers)


def stored_once(rnd: Round, numbers: set[int], records: int) -> None:
    checked = set(Result.objects.filter(round=rnd, checked=True)
                  .values_list("entry__number", flat=True))
    assert checked == numbers
    sent = Counter(ResultChange.objects.values_list("client_id", flat=True))
    assert len(sent) == records
    assert set(sent.values()) == {1}


def test_the_screen_reopens_without_network_and_sends_three_finishes_once(
        browser, asgi_server, running_round, tmp_path):
    """Pair, go offline, reload, record three finishes, close and reopen the browser offline,
    go online: all three stored once, and the page came from the phone's copy each time."""
    championship = running_round.event.championship
    profile = tmp_path / "phone"
    context, page = phone(browser, profile, asgi_server)
    pair(page, championship)
    screen_kept(page)
    expect(page.locator("#clock-elapsed")).to_have_text(re.compile(r"1\d:\d\d"))

    context.set_offline(True)
    response = page.reload()
    assert from_the_phones_copy(response)
    expect(page.locator("#sync")).to_have_attribute("data-state", "offline")
    expect(page.locator("#clock-elapsed")).to_have_text(re.compile(r"1\d:\d\d"))
    for number in (1, 2, 3):
        record_finish(page, number)
    expect(page.locator("#sync")).to_have_text("Offline: 3 entrants waiting to send")
    assert len(outbox_records(page, championship.slug)) == 6
    assert not Result.objects.exists()
    context.close()

    context, page = phone(browser, profile, asgi_server, offline=True)
    response = page.goto(f"/judge/{championship.slug}/")
    assert from_the_phones_copy(response)
    expect(page.locator("#sync")).to_have_text("Offline: 3 entrants waiting to send")
    for number in (1, 2, 3):
        expect(entry(page, number)).to_have_class(re.compile(r"\bpending\b"))
    expect(page.locator("#clock-elapsed")).to_have_text(re.compile(r"1\d:\d\d"))
    screenshot(page, "judge-offline-reopened")

    context.set_offline(False)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=BACK_ONLINE_MS)
    assert outbox_records(page, championship.slug) == []
    stored_once(running_round, {1, 2, 3}, records=6)
    context.close()


def test_a_new_release_replaces_the_phones_copy_at_the_next_online_load(
        browser, asgi_server, running_round, tmp_path, settings):
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server)
    pair(page, championship)
    screen_kept(page)
    first = page.locator("#judge").get_attribute("data-release")

    # The next release: judge.js marks the page it runs on.
    static = tmp_path / "next-release"
    (static / "puzzlecomp").mkdir(parents=True)
    script = Path(settings.STATICFILES_DIRS[0]) / "puzzlecomp" / "judge.js"
    shutil.copy(script, static / "puzzlecomp" / "judge.js")
    with (static / "puzzlecomp" / "judge.js").open("a", encoding="utf-8") as file:
        file.write('\ndocument.documentElement.dataset.release = "next";\n')
    settings.STATICFILES_DIRS = [static, *settings.STATICFILES_DIRS]

    response = page.reload()
    assert response is not None
    assert not from_the_phones_copy(response)
    expect(page.locator("html")).to_have_attribute("data-release", "next")
    assert page.locator("#judge").get_attribute("data-release") != first
    screen_kept(page)

    context.set_offline(True)
    response = page.reload()
    assert from_the_phones_copy(response)
    expect(page.locator("html")).to_have_attribute("data-release", "next")
    record_finish(page, 1)
    expect(page.locator("#sync")).to_have_text("Offline: 1 entrant waiting to send")
    context.set_offline(False)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=BACK_ONLINE_MS)
    stored_once(running_round, {1}, records=2)
    context.close()


# The browser's "online" event never reaches the page's scripts: a hall's Wi-Fi that was joined
# all along but led nowhere, then reaches the server again.
NO_ONLINE_EVENT = """
window.addEventListener("online", (event) => event.stopImmediatePropagation(), true);
"""


@pytest.mark.parametrize("online_event", [True, False])
def test_a_screen_opened_from_the_copy_reloads_into_the_new_release_when_the_network_returns(
        browser, asgi_server, running_round, tmp_path, settings, online_event):
    """Opened from the phone's copy without the network, the screen looks for a new release as
    soon as the network is back (the browser says so, or the server answers again) and reloads
    itself into it (the waiting record survives)."""
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server)
    if not online_event:
        context.add_init_script(NO_ONLINE_EVENT)
    pair(page, championship)
    screen_kept(page)
    context.set_offline(True)
    response = page.reload()
    assert from_the_phones_copy(response)
    record_finish(page, 1)

    static = tmp_path / "next-release"
    (static / "puzzlecomp").mkdir(parents=True)
    script = Path(settings.STATICFILES_DIRS[0]) / "puzzlecomp" / "judge.js"
    shutil.copy(script, static / "puzzlecomp" / "judge.js")
    with (static / "puzzlecomp" / "judge.js").open("a", encoding="utf-8") as file:
        file.write('\ndocument.documentElement.dataset.release = "next";\n')
    settings.STATICFILES_DIRS = [static, *settings.STATICFILES_DIRS]

    context.set_offline(False)
    # No tap and no navigation by the judge: the page reloads itself into the new release.
    expect(page.locator("html")).to_have_attribute("data-release", "next", timeout=30_000)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=BACK_ONLINE_MS)
    stored_once(running_round, {1}, records=2)
    context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_an_unpaired_phone_says_how_many_records_still_wait_on_it(
        browser, asgi_server, running_round, tmp_path, language):
    """The phone's cookies cleared while records waited: the server cannot know them, the
    "not paired" screen says they wait on the phone and go once it is paired again."""
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server, language=language)
    pair(page, championship)
    screen_kept(page)
    context.set_offline(True)
    record_finish(page, 1)
    context.close()

    context, page = phone(browser, tmp_path / "phone", asgi_server, language=language)
    context.clear_cookies()
    context.add_cookies([{"name": "django_language", "value": language, "url": asgi_server}])
    page.goto(f"/judge/{championship.slug}/")
    waiting = page.locator("#waiting-here")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text({"en": "2 records are still waiting on this phone",
                                     "es": "2 registros siguen esperando"}[language])
    screenshot(page, f"judge-unpaired-waiting-{language}")
    context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_worker_refused_for_the_certificate_is_said_and_leaving_asks(
        browser, asgi_server, running_round, tmp_path, language):
    """A phone that refuses the service worker (a certificate it does not trust, as with a
    hall's self-signed one) keeps no copy: the screen says why, and asks before leaving while
    records wait, as on plain HTTP."""
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server, language=language)
    context.add_init_script("""
      navigator.serviceWorker.register = () => Promise.reject(new DOMException(
        "An SSL certificate error occurred when fetching the script.", "SecurityError"));
    """)
    pair(page, championship)
    not_kept = page.locator('#app-state [data-kind="not-kept"]')
    expect(not_kept).to_contain_text({"en": "does not trust this connection's certificate",
                                      "es": "no confía en el certificado"}[language])
    expect(not_kept).not_to_contain_text({"en": "storage", "es": "almacenamiento"}[language])
    context.set_offline(True)
    record_finish(page, 1)
    screenshot(page, f"judge-worker-refused-{language}")
    assert leaving_asks(context, page)
    context.close()


# Makes the outbox's storage refuse every write while `window.storageFull` is true, as a phone
# whose storage quota is used up does; `window.spareFull` makes localStorage refuse its writes
# too (a phone whose every storage is full).
FULL_STORAGE = """
window.storageFull = false;
window.spareFull = false;
const put = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (...args) {
  if (window.storageFull) throw new DOMException("Quota exceeded.", "QuotaExceededError");
  return put.apply(this, args);
};
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (...args) {
  if (window.spareFull) throw new DOMException("Quota exceeded.", "QuotaExceededError");
  return setItem.apply(this, args);
};
"""


def leaving_asks(context, page) -> bool:
    """Whether closing the page (as a reload or leaving does) asks the judge first."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.close(run_before_unload=True)
    context.new_page().wait_for_timeout(500)
    return dialogs == ["beforeunload"]


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_record_the_full_storage_refuses_is_sent_at_once_from_the_page(
        browser, asgi_server, running_round, tmp_path, language):
    """With the network there, a record the phone cannot store is sent from the page at once
    (once the server stores it, it is safe), not after the storage takes it again."""
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server, language=language)
    context.add_init_script(FULL_STORAGE)
    pair(page, championship)
    page.evaluate("window.storageFull = true")
    entry(page, 1).locator('button[data-action="tap"]').tap()
    page.locator('#sheet-form button[data-submit="later"]').tap()
    # Well within the outbox's first wait: sent now, not when the storage has room again.
    for _ in range(50):
        if Result.objects.filter(round=running_round, entry__number=1).exists():
            break
        page.wait_for_timeout(100)
    assert Result.objects.get(round=running_round, entry__number=1).status == "finished"
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    expect(page.locator("article.notice.unkept")).to_have_count(0)
    assert outbox_records(page, championship.slug) == []
    assert ResultChange.objects.count() == 1
    context.close()


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_record_the_full_storage_refuses_offline_is_kept_in_the_spare_storage(
        browser, asgi_server, running_round, tmp_path, language):
    """Offline with the outbox's storage full: the record goes to the other storage, survives
    a reload, and is sent once when the network is back."""
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server, language=language)
    context.add_init_script(FULL_STORAGE)
    pair(page, championship)
    screen_kept(page)
    context.set_offline(True)
    page.evaluate("window.storageFull = true")
    entry(page, 1).locator('button[data-action="tap"]').tap()
    page.locator('#sheet-form button[data-submit="later"]').tap()

    notice = page.locator("article.notice.unkept")
    expect(notice).to_have_count(1)
    expect(notice).to_have_attribute("data-spare", "true")
    words = {"en": ("Entry 1: not sent", "its storage is full", "survives a reload"),
             "cs": ("Startující 1: neodesláno", "úložiště je plné", "přežije znovunačtení")}
    for word in words[language]:
        expect(notice).to_contain_text(word)
    expect(page.locator("#sync")).to_have_attribute("data-state", "unkept")
    expect(entry(page, 1).locator(".held-mark")).to_be_visible()
    expect(entry(page, 1)).to_have_attribute("data-status", "finished")
    screenshot(page, f"judge-storage-full-spare-{language}")
    assert outbox_records(page, championship.slug) == []

    # Kept in the spare storage: the reload does not ask, and the record is still there.
    # (The reloaded page's storage takes records again: the record moves into the outbox.)
    page.reload()
    expect(entry(page, 1)).to_have_attribute("data-status", "finished")
    expect(page.locator("#sync")).to_have_text("Offline: 1 entrant waiting to send"
                                               if language == "en" else re.compile(r"1"))
    assert not Result.objects.exists()
    context.set_offline(False)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=BACK_ONLINE_MS)
    assert Result.objects.get(round=running_round, entry__number=1).status == "finished"
    assert ResultChange.objects.count() == 1
    assert page.evaluate(f"localStorage.getItem('puzzlecomp-judge-spare-{championship.slug}')") \
        is None
    context.close()


def test_a_record_held_only_in_the_page_asks_before_a_reload(
        browser, asgi_server, running_round, tmp_path):
    """Every storage full, offline, on HTTPS with the screen kept: the record is in the page
    only, the screen says so, and a reload or leaving the page asks first."""
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server)
    context.add_init_script(FULL_STORAGE)
    pair(page, championship)
    screen_kept(page)
    context.set_offline(True)
    page.evaluate("window.storageFull = true; window.spareFull = true")
    entry(page, 1).locator('button[data-action="tap"]').tap()
    page.locator('#sheet-form button[data-submit="later"]').tap()
    notice = page.locator("article.notice.unkept")
    expect(notice).to_have_attribute("data-spare", "false")
    expect(notice).to_contain_text("keep this page open")
    screenshot(page, "judge-storage-full-page-only")
    assert leaving_asks(context, page)
    context.close()


def test_with_the_screen_kept_a_reload_with_stored_records_does_not_ask(
        browser, asgi_server, running_round, tmp_path):
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server)
    pair(page, championship)
    screen_kept(page)
    context.set_offline(True)
    record_finish(page, 1)
    expect(page.locator("#sync")).to_have_text("Offline: 1 entrant waiting to send")
    assert not leaving_asks(context, page)
    context.close()


def test_records_waiting_when_the_storage_is_cleared_are_put_back_and_sent_once(
        browser, asgi_server, running_round, tmp_path):
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server)
    pair(page, championship)
    screen_kept(page)
    context.set_offline(True)
    record_finish(page, 1)
    record_finish(page, 2)
    expect(page.locator("#sync")).to_have_text("Offline: 2 entrants waiting to send")
    wait_until(page, f"""new Promise((resolve) => {{
        const open = indexedDB.open("puzzlecomp-judge-{championship.slug}", 1);
        open.onsuccess = () => {{
          const read = open.result.transaction("items").objectStore("items").count();
          read.onsuccess = () => {{ resolve(read.result === 4); open.result.close(); }};
        }};
    }})""")

    # The phone's storage is cleared while the page is open (by the judge, or evicted by the
    # browser): the outbox, the round's data, the service worker and its cache. (Cleared
    # cookies unpair the phone: the open page still sends, reopening needs a new pairing.)
    session = context.new_cdp_session(page)
    session.send("Storage.clearDataForOrigin", {
        "origin": asgi_server,
        "storageTypes": "indexeddb,local_storage,cache_storage,service_workers"})
    app = page.locator("#app-state")
    expect(app.locator('[data-kind="restored"]')).to_contain_text(
        "storage was cleared while 4 records waited")
    wait_until(page, f"""new Promise((resolve) => {{
        const open = indexedDB.open("puzzlecomp-judge-{championship.slug}", 1);
        open.onsuccess = () => {{
          const read = open.result.transaction("items").objectStore("items").count();
          read.onsuccess = () => {{ resolve(read.result === 4); open.result.close(); }};
        }};
    }})""")
    screenshot(page, "judge-storage-cleared")
    # The notice stays in view wherever the judge is on the page.
    page.evaluate("""document.getElementById("tables").style.paddingBottom = "3000px";
                     window.scrollTo(0, 2000)""")
    page.wait_for_timeout(300)
    box = app.bounding_box()
    assert box is not None
    assert 0 <= box["y"] < 200
    # No copy of the screen left on the phone: leaving the page asks first.
    assert page.evaluate("""new Promise((resolve) => {
        const event = new Event("beforeunload", { cancelable: true });
        window.dispatchEvent(event);
        resolve(event.defaultPrevented);
    })""")

    context.set_offline(False)
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent", timeout=BACK_ONLINE_MS)
    expect(app).to_be_empty()
    stored_once(running_round, {1, 2}, records=4)
    # The clearing took the phone's copy too: back online, the screen is kept again.
    screen_kept(page)
    context.close()


def test_on_plain_http_the_screen_warns_before_a_reload_loses_it(
        browser, asgi_server, running_round, settings):
    """A host name that is not this machine's loopback address is no secure context: no
    service worker; the screen says a reload needs the network and asks before leaving."""
    championship = running_round.event.championship
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "judges.hall"]
    port = asgi_server.rsplit(":", 1)[1]
    hall = f"http://judges.hall:{port}"
    plain = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, "--host-resolver-rules=MAP judges.hall 127.0.0.1"])
    context = plain.new_context(base_url=hall, **PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    pair(page, championship)
    assert page.evaluate("window.isSecureContext") is False
    expect(page.locator("#app-state")).to_be_empty()

    # Records are made here too (their ids without crypto.randomUUID, which needs HTTPS).
    record_finish(page, 1)
    # Checked (the check applied on the phone), then no longer waiting: both records sent.
    expect(entry(page, 1)).to_have_attribute("data-checked", "true")
    expect(entry(page, 1)).not_to_have_class(re.compile(r"\bpending\b"))
    expect(page.locator("#sync")).to_have_attribute("data-state", "sent")
    context.set_offline(True)
    record_finish(page, 2)
    expect(page.locator("#sync")).to_have_text("Offline: 1 entrant waiting to send")
    expect(page.locator('#app-state [data-kind="plain-http"]')).to_contain_text(
        "opening it again needs the network")
    screenshot(page, "judge-plain-http")
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.close(run_before_unload=True)
    wait_until_closed = context.new_page()
    wait_until_closed.wait_for_timeout(300)
    assert dialogs == ["beforeunload"]
    context.close()
    plain.close()
    assert Result.objects.get(round=running_round, entry__number=1).checked


def test_public_pages_say_they_are_not_live_while_the_network_is_gone(live_page, running_round):
    """The public pages and consoles stay online-only: no stale page presented as live."""
    page = live_page
    championship = running_round.event.championship
    page.goto(f"/c/{championship.slug}/results/{running_round.pk}/")
    banner = page.locator("#offline-banner")
    status = page.locator("[data-live-status]")
    expect(status).to_have_attribute("data-status", "live")
    expect(banner).to_be_hidden()
    page.context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("this page is not live")
    expect(status).to_be_hidden()
    screenshot(page, "public-offline")
    page.context.set_offline(False)
    expect(banner).to_be_hidden()


def test_a_revoked_phone_loses_its_copy_of_the_screen(browser, asgi_server, running_round,
                                                      tmp_path):
    championship = running_round.event.championship
    context, page = phone(browser, tmp_path / "phone", asgi_server)
    pair(page, championship)
    screen_kept(page)
    device_revoke(device=JudgeDevice.objects.get(championship=championship), user=None)
    response = page.reload()
    assert response is not None
    assert response.status == 401
    context.set_offline(True)
    with pytest.raises(PlaywrightError):
        page.reload()
    context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_hall_screens_and_overlays_say_they_are_not_live_while_the_network_is_gone(
        live_page, asgi_server, running_round, language):
    """The hall's screen and the projector say it in full; a stream's overlay discreetly."""
    page = live_page
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": asgi_server}])
    slug = running_round.event.championship.slug
    words = {"en": ("this page is not live", "not live"),
             "es": ("no está en directo", "no en directo")}[language]
    for url, full in ((f"/c/{slug}/results/hall/", True),
                      (f"/c/{slug}/results/{running_round.pk}/projector/", True),
                      (f"/c/{slug}/results/{running_round.pk}/overlay/clock/", False)):
        page.goto(url)
        mark = page.locator("#offline-mark")
        expect(mark).to_be_hidden()
        page.context.set_offline(True)
        expect(mark).to_be_visible()
        expect(mark).to_contain_text(words[0] if full else words[1])
        box = mark.bounding_box()
        assert box is not None
        # At the top of the screen; an overlay's mark in a corner, out of the stream's way.
        assert box["y"] < 50
        assert (box["width"] > 600) is full
        screenshot(page, f"offline-mark-{url.strip('/').split('/')[-1]}-{language}")
        page.context.set_offline(False)
        expect(mark).to_be_hidden()
