from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from judging.throttles import login_throttled
from judging.views import errors
from judging.views.collections import home
from judging.views.redirects import LoginView, LogoutView

handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = errors.page_not_found
handler500 = errors.server_error

# Every password form is throttled per address and per account (judging.throttles).
admin.site.login = login_throttled(admin.site.login)

api_urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("", include("judging.api_urls")),
    path("", include("evaluation.api_urls")),
]

urlpatterns = [
    path("", home, name="home"),
    path("login/", login_throttled(LoginView.as_view()), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", include((api_urlpatterns, "api"))),
    path("", include("judging.urls")),
    path("", include("evaluation.urls")),
]
