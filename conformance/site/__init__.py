"""Rule-by-rule documentation: SVG board diagrams, a static site, and the HTML report of one run.

- :func:`conformance.site.svg.board_svg`: a position as an SVG diagram (arrows, captures, marks);
- :func:`conformance.site.build.write_site`: the site from the corpus and saved reports;
- :func:`conformance.site.build.render_html`: one self-contained page for a single run;
- :func:`conformance.cli.docs.register`: the ``docs`` subcommand.
"""

from conformance.site.build import render_html, write_site
from conformance.site.svg import Arrow, ArrowRole, board_svg, move_arrow, move_route

__all__ = ["Arrow", "ArrowRole", "board_svg", "move_arrow", "move_route", "render_html", "write_site"]
