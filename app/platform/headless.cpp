#include "headless.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

#include <cstring>
#include <vector>

namespace rl::platform {
namespace {

struct Attempt {
  EGLDisplay display = EGL_NO_DISPLAY;
  const char* how = "";
};

bool has_extension(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

// Displays to try, best first: GPU devices (NVIDIA's headless path), Mesa surfaceless, default.
std::vector<Attempt> candidate_displays() {
  std::vector<Attempt> out;
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  auto query_devices =
      reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  if (get_platform_display && query_devices && has_extension(client, "EGL_EXT_platform_device")) {
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (query_devices(16, devices, &count))
      for (EGLint i = 0; i < count; ++i)
        out.push_back({get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr), "device"});
  }
  if (get_platform_display && has_extension(client, "EGL_MESA_platform_surfaceless"))
    out.push_back({get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
                   "surfaceless"});
  out.push_back({eglGetDisplay(EGL_DEFAULT_DISPLAY), "default"});
  return out;
}

}  // namespace

std::unique_ptr<HeadlessContext> HeadlessContext::create(std::string* error) {
  std::string tried;
  for (const Attempt& a : candidate_displays()) {
    if (a.display == EGL_NO_DISPLAY) continue;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(a.display, &major, &minor)) {
      tried += std::string(tried.empty() ? "" : "; ") + a.how + ": eglInitialize failed";
      continue;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
      tried += std::string(tried.empty() ? "" : "; ") + a.how + ": no desktop OpenGL";
      eglTerminate(a.display);
      continue;
    }
    const EGLint pbuffer_attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                    EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                    EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    const EGLint any_attrs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    bool pbuffer = eglChooseConfig(a.display, pbuffer_attrs, &config, 1, &n) && n > 0;
    if (!pbuffer && !(eglChooseConfig(a.display, any_attrs, &config, 1, &n) && n > 0)) {
      tried += std::string(tried.empty() ? "" : "; ") + a.how + ": no OpenGL config";
      eglTerminate(a.display);
      continue;
    }
    const EGLint ctx_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                EGL_NONE};
    EGLContext ctx = eglCreateContext(a.display, config, EGL_NO_CONTEXT, ctx_attrs);
    if (ctx == EGL_NO_CONTEXT) {
      tried += std::string(tried.empty() ? "" : "; ") + a.how + ": no OpenGL 3.3 core context";
      eglTerminate(a.display);
      continue;
    }
    EGLSurface surface = EGL_NO_SURFACE;
    if (pbuffer) {
      const EGLint surf_attrs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
      surface = eglCreatePbufferSurface(a.display, config, surf_attrs);
    }
    if (!eglMakeCurrent(a.display, surface, surface, ctx) ||
        !gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
      tried += std::string(tried.empty() ? "" : "; ") + a.how + ": context not usable";
      if (surface != EGL_NO_SURFACE) eglDestroySurface(a.display, surface);
      eglDestroyContext(a.display, ctx);
      eglTerminate(a.display);
      continue;
    }
    auto out = std::unique_ptr<HeadlessContext>(new HeadlessContext());
    out->display_ = a.display;
    out->context_ = ctx;
    out->surface_ = surface;
    return out;
  }
  if (error) *error = "no headless OpenGL 3.3 through EGL (" + (tried.empty() ? "no EGL display" : tried) + ")";
  return nullptr;
}

HeadlessContext::~HeadlessContext() {
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

std::string HeadlessContext::renderer() const {
  const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return r ? r : "unknown";
}

}  // namespace rl::platform
