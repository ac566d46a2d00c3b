"""Club tournaments: one organizer, many tables, live standings on the wall."""

from flask import Blueprint

from ..web.limits import limit_posts

bp = Blueprint("tournaments", __name__)
limit_posts(bp)

from . import views  # noqa: E402,F401
