import re
import unicodedata as ud

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lower-case words joined by dashes.

        Accents are dropped.
    """
    text = ud.normalize("NFKD", text)
    return _NON_WORD.sub("-", text.lower()).strip("-")


def retry(times=3):
    """Retry the decorated function on OSError."""

    def decorate(fn):
        def wrapper(*args, **kwargs):
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except OSError:
                    log_retry(attempt)
            return fn(*args, **kwargs)

        return wrapper

    return decorate


def log_retry(attempt):
    print("retry", attempt)
