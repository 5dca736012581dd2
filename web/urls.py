"""
This is the starting point when a user enters a url in their web browser.

The urls is matched (by regex) and mapped to a 'view' - a Python function or
callable class that in turn (usually) makes use of a 'template' (a html file
with slots that can be replaced by dynamic content) in order to render a HTML
page to show the user.

This file includes the urls in website, webclient and admin. To override you
should modify urls.py in those sub directories.

Search the Django documentation for "URL dispatcher" for more help.

"""

from django.urls import include, path

# default evennia patterns
from evennia.web.urls import urlpatterns as evennia_default_urlpatterns

# add patterns
urlpatterns = [
    # website
    path("", include("web.website.urls")),
    path("", include("wodcombat.urls")),
    # webclient
    path("webclient/", include("web.webclient.urls")),
    # web admin
    path("admin/", include("web.admin.urls")),
    # add any extra urls here:
    # path("mypath/", include("path.to.my.urls.file")),
]

# Issue 30: of Evennia's own list, what the lines above do not serve already (its favicon,
# its API when enabled). Its website and web client are included above, through ours:
# included a second time here, Evennia's would serve again the pages ours leave out.
_INCLUDED_ABOVE = {"evennia.web.website.urls", "evennia.web.webclient.urls"}


def _not_included_above(pattern) -> bool:
    urlconf = getattr(pattern, "urlconf_name", None)
    return getattr(urlconf, "__name__", urlconf) not in _INCLUDED_ABOVE


# 'urlpatterns' must be named such for Django to find it.
urlpatterns = urlpatterns + [p for p in evennia_default_urlpatterns if _not_included_above(p)]
