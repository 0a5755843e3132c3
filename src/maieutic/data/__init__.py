"""What every task's data formats share: reading and writing files safely
(``maieutic.data.files``), recognising a mixed-up file (``kinds``) and flags for
tolerated problems (``flags``). Each task's own formats live in its folder
(``maieutic.tasks.<task>.data``)."""
