"""The protocol kernel: the one error model and its catalogue, the strict JSON reader, parameters
and their progressive validation. Plain Python that both apps stand on (CHAP's schemas in
sessions/chap, SAP's operations in agents/sap); it imports nothing from either."""
