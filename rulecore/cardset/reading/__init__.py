"""The reading step of loading: a cardset's files in, one ``Document`` out.

``reader`` finds a cardset's file and reads it and every file it names: through ``files``
(confinement to the allowed folders, size caps, UTF-8), parsed by ``yamlsrc`` (YAML with the
line and column of every value), the files under ``include:`` merged by ``includes``, the base
of an ``extends:`` read the same way and the variant merged over it by ``variants``.  It hands
the building step one ``document.Document``: the merged data, where each value came from, and
the problems found while reading.  Only ``reader`` calls ``files`` and ``yamlsrc`` (no other
module of the step reads a file), and the modules it calls call nothing back.

May import: rulecore.errors, rulecore._resources, and of the cardset package only ``limits``
and ``schema`` (never the building step, the checks or the model).
"""
