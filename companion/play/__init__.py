"""Digital play: the app deals and runs whole matches, with computer players."""

from flask import Blueprint

from ..web.limits import limit_posts

bp = Blueprint("play", __name__)
limit_posts(bp)

from . import proofs, views  # noqa: E402,F401
