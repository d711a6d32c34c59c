from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from common import error_pages as errors
from common.redirects import LoginView, LogoutView
from common.throttles import login_throttled
from config.admin_redirects import admin_judging_redirect
from config.home import home

handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = errors.page_not_found
handler500 = errors.server_error

# Every password form is throttled per address and per account (common.throttles).
admin.site.login = login_throttled(admin.site.login)

api_urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("", include("people.api_urls")),
    path("", include("catalog.api_urls")),
    path("", include("crowd.api_urls")),
    path("", include("pastanswers.api_urls")),
    path("", include("relevance.api_urls")),
    path("", include("ingest.api_urls")),
    path("", include("evaluation.api_urls")),
]

urlpatterns = [
    path("", home, name="home"),
    path("login/", login_throttled(LoginView.as_view()), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    # the admin's pages of the models that lived in judging (bookmarks from before issue 30)
    path("admin/judging/", admin_judging_redirect),
    path("admin/judging/<slug:model>/", admin_judging_redirect),
    path("admin/judging/<slug:model>/<path:rest>", admin_judging_redirect),
    path("admin/", admin.site.urls),
    path("api/", include((api_urlpatterns, "api"))),
    path("", include("catalog.urls")),
    path("", include("relevance.urls")),
    path("", include("crowd.urls")),
    path("", include("pastanswers.urls")),
    path("", include("pairwise.urls")),
    path("", include("people.urls")),
    path("", include("listening.urls")),
    path("", include("ingest.urls")),
    path("", include("evaluation.urls")),
]
