"""The page's Python side: views, room state and the browser glue that runs under Pyodide."""
