from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="workspace:list"), name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("sessions/", include("workspace.urls")),
    path("api/", include("sessions.api_urls")),
    path("api/", include("agents.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

# Errors Django answers itself, in the error model (JSON on /api/, a page elsewhere).
handler400 = "workbench.error_pages.bad_request"
handler403 = "workbench.error_pages.permission_denied"
handler404 = "workbench.error_pages.page_not_found"
handler500 = "workbench.error_pages.server_error"
