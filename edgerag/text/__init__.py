"""Text processing: token counting, sentences, chunks and sub-chunks, keywords.

tokens.py     token counting for ℓ and λ
sentences.py  sentence splitting, offline (nltk's Punkt); a table row is one sentence
rows.py       a table row as one line with its header ("Caption — Price: 12,400 EUR; Room: B-2"),
              several header rows joined into a path ("2019 · $m"), a section row carried into
              the labels below ("Revenue › Services")
sections.py   which section a body row is in: a list's heading ("Adjustments for:") inside the
              section above, a subtotal ("Net cash from …", bold) ending its section
printed.py    a table as a report prints it made plain: negatives in parentheses, dashes,
              footnote marks, "$" and "%" in cells of their own, unit rows, the table's scale,
              columns named alike given their years ("2021 · % of revenue")
table_groups.py the row lines of the texts given, grouped into tables (`tables_in`)
tables.py     a column's superlative or a comparison of rows, decided in code (`table_answer`)
  top_rows.py the top rows of a column named ("Which are the top 2 …?"), for tables.py
  row_scope.py  the rows it compares: the section the question names, no total row unasked
lookup.py     a row the question names (by its words, or the range holding its amount), its
              column read in code, and yes/no over rows (`row_lookup`)
cells.py      a table cell's value: a number with its unit or currency, or a date
chunking.py   documents → chunks (ℓ) → sub-chunks (⌈ℓ/2^τ⌉) and sentences
keywords.py   keyword tokens: words less English stop words (KET-RAG §5.1)
linkkeys.py   link keys: what two passages share that makes one a bridge to the other
normalize.py  the SQuAD normaliser answers are compared with
dates.py      dates at their written precision; a person's birth and death, a thing's date
quantities.py numbers with units and coordinates, in one base (answer/compare.py compares them)
"""
