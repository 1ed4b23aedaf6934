import type { Db } from "../engine/db.ts";

export interface WorkNoteRow {
  readonly id: number;
  readonly at: number;
  readonly text: string;
}

/** The owner's notes in a site's work history (POST /work/{host}/notes), per account and host. */
export class WorkNotesRepo {
  constructor(private readonly db: Db) {}

  async add(accountId: number, host: string, text: string, at: number): Promise<WorkNoteRow> {
    const [row] = await this.db.query<WorkNoteRow>(
      "INSERT INTO work_notes (account_id, host, at, text) VALUES ($1, $2, $3, $4) RETURNING id, at, text",
      [accountId, host, at, text],
    );
    return row as WorkNoteRow;
  }

  /** Notes written at or after `since`, newest first, at most `limit`. */
  async since(accountId: number, host: string, since: number, limit: number): Promise<WorkNoteRow[]> {
    return this.db.query<WorkNoteRow>(
      "SELECT id, at, text FROM work_notes WHERE account_id = $1 AND host = $2 AND at >= $3 ORDER BY at DESC, id DESC LIMIT $4",
      [accountId, host, since, limit],
    );
  }
}
