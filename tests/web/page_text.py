"""A page as text to look for names in, without its random keys."""
from __future__ import annotations

import re

# CSRF tokens, and the secrets in a game's or a group's links: random letters that may
# hold any short name by chance ("…gOlaln…" held "Ola").
SECRETS = re.compile(r'(?<=name="csrf_token" value=")[^"]*|(?<=/g/)\d+-[\w-]+|(?<=/group/)\d+-[\w-]+')


def shown(response) -> str:
    """The page's HTML with each random key replaced by "…": a name is found in it only
    where the page shows or names it."""
    return SECRETS.sub("…", response.get_data(as_text=True))
