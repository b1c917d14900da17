"""Build script: maps core/ and cluster/ to genethello.core / genethello.cluster
and compiles the Cython core.

Environment switches (all off by default):
  GENETHELLO_NATIVE=1        compile with -march=native (faster, but the build
                             then only runs on CPUs like the build machine's).
  GENETHELLO_CYTHON_DEBUG=1  turn bounds/wraparound checks back on.
"""

import os
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent.resolve()
PACKAGE_FOLDERS = {"genethello.core": "core", "genethello.cluster": "cluster"}


def mapped_packages() -> list[str]:
    packages = []
    for name, folder in PACKAGE_FOLDERS.items():
        packages.append(name)
        packages += [f"{name}.{sub}" for sub in find_packages(folder)]
    return packages


def cython_include_dir() -> str:
    """Cython finds `genethello/core/x.pxd` by its qualified name; the folder is
    `core/`, so give Cython a tree where genethello/core points at it."""
    inc = ROOT / "build" / "cython-include" / "genethello"
    inc.mkdir(parents=True, exist_ok=True)
    (inc / "__init__.pxd").touch()
    link = inc / "core"
    if not link.is_symlink():
        link.symlink_to(ROOT / "core", target_is_directory=True)
    return str(inc.parent)


def extensions() -> list:
    from Cython.Build import cythonize

    debug = os.environ.get("GENETHELLO_CYTHON_DEBUG") == "1"
    compile_args = ["-O3", "-fno-strict-aliasing"]
    if os.environ.get("GENETHELLO_NATIVE") == "1":
        compile_args.append("-march=native")
    # Every .pyx under core/ is one extension, named by its path:
    # core/engine/search.pyx is genethello.core.engine.search.
    sources = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "core").rglob("*.pyx"))
    exts = [
        Extension(
            "genethello." + source.removesuffix(".pyx").replace("/", "."),
            [source],
            extra_compile_args=compile_args,
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        )
        for source in sources
    ]
    directives = {
        "language_level": 3,
        "boundscheck": debug,
        "wraparound": debug,
        "initializedcheck": debug,
        "cdivision": True,
        "embedsignature": True,
    }
    return cythonize(exts, compiler_directives=directives, include_path=[cython_include_dir()])


class ParallelBuildExt(build_ext):
    """Compile the core's modules on every core unless --parallel says
    otherwise (pip install runs build_ext with no flags: a serial compile
    took about a minute on a 2-core machine)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(
    cmdclass={"build_ext": ParallelBuildExt},
    packages=mapped_packages(),
    package_dir=PACKAGE_FOLDERS,
    package_data={
        # the Cython interfaces and type stubs travel with every folder of core/
        **{package: ["*.pxd", "*.pyi"] for package in mapped_packages() if package.startswith("genethello.core")},
        "genethello.core": ["*.pxd", "*.pyi", "data/*", "data/networks/*"],
        "genethello.cluster": ["db/migrations/*.py", "db/migrations/*.mako", "db/migrations/versions/*.py",
                               "web/static/*", "web/static/js/*", "web/static/vendor/*", "measures/data/*.json"],
    },
    ext_modules=extensions(),
)
