"""The build's one step of its own: the translations' catalogs compiled before the package
is built (Babel's compile_catalog: scorekeeper/translations/<language>/LC_MESSAGES/
messages.po → messages.mo), for an installed wheel and an editable install alike. The
compiled files are not kept in the repository. Everything else is in pyproject.toml."""
from babel.messages.setuptools_frontend import compile_catalog
from setuptools import setup
from setuptools.command.build_py import build_py


class build_py_with_catalogs(build_py):
    def run(self):
        self.run_command("compile_catalog")
        super().run()


setup(
    cmdclass={"build_py": build_py_with_catalogs, "compile_catalog": compile_catalog},
    command_options={"compile_catalog": {"directory": ("setup.py", "scorekeeper/translations")}},
)
