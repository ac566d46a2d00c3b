"""Groups: the same friends every week, their seasons and who owes whom."""

from flask import Blueprint

from ..web.limits import limit_posts

bp = Blueprint("groups", __name__)
limit_posts(bp)

from . import stats, views  # noqa: E402,F401
