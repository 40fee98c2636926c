/**
 * The words a seeded dataset is built from (`npm run cli -- seed`).
 *
 * Search words — what `npm run bench` searches for, so their frequencies are fixed here:
 * * COMMON_WORDS: each appears in about 30% of events (independently of the others), half of
 *   the time in the title, else in the description.
 * * RARE_WORDS: each appears in about 0.1% of events, in the description.
 * No other list below contains a search word, even inside a longer word (search matches
 * substrings), so the frequencies above are the real ones; seed-plan.spec.ts checks both.
 */
export const COMMON_WORDS = ['community', 'workshop', 'festival'] as const;
export const RARE_WORDS = ['zeppelin', 'quokka', 'marzipan', 'obsidian', 'xylophone', 'tardigrade', 'kaleidoscope', 'nebula', 'bagpipes', 'origami'] as const;

/** Probability that an event carries a given common word; of a given rare word. */
export const COMMON_WORD_SHARE = 0.3;
export const RARE_WORD_SHARE = 0.001;

/** How a common word enters a title (appended) and a description (one sentence). */
export const COMMON_WORD_PHRASES: Record<(typeof COMMON_WORDS)[number], { title: string; sentence: string }> = {
  community: { title: 'for the Community', sentence: 'Proceeds support the local community garden.' },
  workshop: { title: 'Workshop', sentence: 'The afternoon includes a hands-on workshop for anyone who wants to try.' },
  festival: { title: 'Festival', sentence: "Part of the city's summer festival programme." },
};

export const rareWordSentence = (word: string): string => `Look out for the ${word} surprise at the end.`;

// ---- event titles

export const ADJECTIVES = [
  'Summer',
  'Winter',
  'Spring',
  'Autumn',
  'Midnight',
  'Sunset',
  'Morning',
  'Grand',
  'Little',
  'Annual',
  'Weekly',
  'Monthly',
  'Late',
  'Early',
  'Acoustic',
  'Electric',
  'Silent',
  'Golden',
  'Urban',
  'Rural',
  'Riverside',
  'Harbor',
  'Garden',
  'Rooftop',
  'Vintage',
  'Modern',
  'Classic',
  'Global',
  'Local',
  'Family',
  'Youth',
  'Beginner',
  'Advanced',
  'Friendly',
  'Wild',
  'Quiet',
  'Bright',
  'Northern',
  'Southern',
  'Coastal',
  'Mountain',
  'Downtown',
  'Historic',
  'Creative',
  'Green',
  'Blue',
  'Candlelit',
  'Open-Air',
];

export const TOPICS = [
  'Jazz',
  'Blues',
  'Salsa',
  'Poetry',
  'Pottery',
  'Photography',
  'Painting',
  'Robotics',
  'Chess',
  'Yoga',
  'Wine',
  'Cheese',
  'Coffee',
  'Bread',
  'Film',
  'Theatre',
  'Comedy',
  'Science',
  'History',
  'Astronomy',
  'Gardening',
  'Cycling',
  'Running',
  'Startup',
  'Design',
  'Coding',
  'Knitting',
  'Dance',
  'Opera',
  'Folk',
  'Techno',
  'Choir',
  'Book',
  'Craft Beer',
  'Street Food',
  'Vegan Cooking',
  'Birdwatching',
  'Sailing',
  'Climbing',
  'Board Game',
  'Language',
  'Meditation',
  'Architecture',
  'Fashion',
  'Ceramics',
  'Sculpture',
  'Tango',
  'Piano',
  'Guitar',
  'Violin',
  'Drum',
  'Trivia',
  'Cinema',
  'Wildlife',
  'Ocean',
  'Forest',
  'Harvest',
  'Lantern',
  'Kite',
  'Puppet',
];

export const EVENT_KINDS = [
  'Concert',
  'Meetup',
  'Exhibition',
  'Lecture',
  'Tasting',
  'Market',
  'Screening',
  'Tour',
  'Class',
  'Gala',
  'Fair',
  'Reading',
  'Recital',
  'Showcase',
  'Session',
  'Conference',
  'Brunch',
  'Parade',
  'Quiz Night',
  'Open Day',
  'Hackathon',
  'Tournament',
  'Retreat',
  'Jam',
  'Performance',
  'Premiere',
  'Auction',
  'Symposium',
  'Dinner',
  'Walk',
];

// ---- description sentences: `{slot}` is filled from SLOTS

export const SENTENCES = [
  'Join us at {place} for {adj} evening of {topic} and {topic}.',
  'Doors open at {time}; {advice}.',
  'This {kind} welcomes {audience} and is led by {people}.',
  'Bring {item} and {item}.',
  'Expect {topic} sessions, {food} and good company.',
  'Our {role} will share {topic} tips drawn from years of practice.',
  'Parking is available nearby, and the venue is {access}.',
  'Seats are limited, so {advice}.',
  'Last year more than {number} guests came, and this edition is bigger still.',
  'The programme mixes {topic} with {topic} for {audience}.',
  '{food} will be served during the break.',
  'Everything is in English, with {language} help on request.',
];

export const SLOTS: Record<string, readonly string[]> = {
  place: ['the old mill', 'the town square', 'the harbour front', 'the main hall', 'the rooftop terrace', 'the library garden', 'the north wing'],
  adj: ['a relaxed', 'a lively', 'an unforgettable', 'a cosy', 'a spirited', 'an inspiring', 'a playful'],
  time: ['6 pm', '7 pm', '7:30 pm', '10 am', 'noon', '8 pm'],
  advice: ['book early', 'arrive on time', 'register online', 'check the website for updates', 'bring cash for the bar'],
  kind: EVENT_KINDS.map((k) => k.toLowerCase()),
  audience: [
    'beginners',
    'families',
    'students',
    'professionals',
    'everyone',
    'newcomers',
    'local residents',
    'visitors',
    'children over six',
    'members and guests',
  ],
  people: ['local artists', 'guest speakers', 'our volunteers', 'seasoned musicians', 'expert guides', 'award-winning chefs'],
  item: ['a notebook', 'comfortable shoes', 'a water bottle', 'your own mug', 'a friend', 'a blanket', 'your questions'],
  food: ['Light snacks', 'Homemade cakes', 'Hot drinks', 'Regional wines', 'Street snacks', 'Fresh lemonade'],
  role: ['host', 'instructor', 'curator', 'guide', 'chef'],
  access: ['step-free', 'reachable by tram', 'close to the station', 'wheelchair accessible'],
  number: ['200', '350', '500', '1,200', '80'],
  language: ['Spanish', 'German', 'French', 'Japanese'],
  topic: TOPICS.map((t) => t.toLowerCase()),
};

// ---- venues, organizers

export interface City {
  city: string;
  state: string;
  province: string;
  country: string;
  zip: string;
  phonePrefix: string;
  /** The zone of events held there (a fixed offset where the spec allows one: `UTC+5:30`). */
  zone: string;
}

export const CITIES: City[] = [
  { city: 'New York', state: 'NY', province: '', country: 'United States', zip: '10001', phonePrefix: '+1 212', zone: 'America/New_York' },
  { city: 'Berlin', state: '', province: 'Berlin', country: 'Germany', zip: '10115', phonePrefix: '+49 30', zone: 'Europe/Berlin' },
  { city: 'Tokyo', state: '', province: 'Tokyo', country: 'Japan', zip: '100-0001', phonePrefix: '+81 3', zone: 'Asia/Tokyo' },
  { city: 'Sydney', state: '', province: 'NSW', country: 'Australia', zip: '2000', phonePrefix: '+61 2', zone: 'Australia/Sydney' },
  { city: 'Mumbai', state: '', province: 'Maharashtra', country: 'India', zip: '400001', phonePrefix: '+91 22', zone: 'UTC+5:30' },
  { city: 'London', state: '', province: '', country: 'United Kingdom', zip: 'EC1A 1BB', phonePrefix: '+44 20', zone: 'Europe/London' },
  { city: 'Los Angeles', state: 'CA', province: '', country: 'United States', zip: '90012', phonePrefix: '+1 213', zone: 'America/Los_Angeles' },
  { city: 'Toronto', state: '', province: 'ON', country: 'Canada', zip: 'M5H 2N2', phonePrefix: '+1 416', zone: 'America/Toronto' },
  { city: 'Paris', state: '', province: '', country: 'France', zip: '75001', phonePrefix: '+33 1', zone: 'Europe/Paris' },
  { city: 'São Paulo', state: '', province: 'SP', country: 'Brazil', zip: '01000-000', phonePrefix: '+55 11', zone: 'UTC-3' },
  { city: 'Reykjavík', state: '', province: '', country: 'Iceland', zip: '101', phonePrefix: '+354', zone: 'UTC' },
];

/** Zones of events without a venue (or held elsewhere), with weights. */
export const EVENT_ZONES: [string, number][] = [
  ['UTC', 20],
  ['America/New_York', 20],
  ['Europe/Berlin', 15],
  ['Asia/Tokyo', 10],
  ['Australia/Sydney', 10],
  ['UTC+5:30', 8],
  ['America/Los_Angeles', 8],
  ['Europe/London', 6],
  ['UTC-3', 3],
];

export const VENUE_KINDS = [
  'Hall',
  'Theatre',
  'Arena',
  'Gallery',
  'Studio',
  'Library',
  'Park',
  'Pavilion',
  'Club',
  'Warehouse',
  'Chapel',
  'Museum',
  'Café',
  'Bar',
  'Gardens',
  'Centre',
  'Auditorium',
  'Loft',
  'Barn',
  'Market Hall',
];

export const STREETS = [
  'Market Street',
  'High Street',
  'Station Road',
  'Mill Lane',
  'Harbour Way',
  'Park Avenue',
  'Church Street',
  'King Street',
  'Linden Allee',
  'Elm Row',
];

export const ORGANIZER_KINDS = [
  'Society',
  'Collective',
  'Club',
  'Association',
  'Foundation',
  'Guild',
  'Network',
  'Ensemble',
  'Trust',
  'Union',
  'Circle',
  'Alliance',
];

// ---- terms

/** Category tree: `[name, children]`; taken breadth-first so parents always come first. */
export type CategoryNode = [string, CategoryNode[]?];

export const CATEGORY_TREE: CategoryNode[] = [
  [
    'Music',
    [['Jazz'], ['Rock'], ['Classical', [['Chamber Music'], ['Orchestral'], ['Opera']]], ['Folk'], ['Electronic'], ['Hip Hop'], ['Choir'], ['World Music']],
  ],
  ['Arts', [['Painting'], ['Sculpture'], ['Photography'], ['Ceramics'], ['Street Art'], ['Printmaking']]],
  ['Theatre & Dance', [['Drama'], ['Musicals'], ['Ballet'], ['Contemporary Dance'], ['Improv'], ['Stand-up Comedy']]],
  ['Film', [['Documentaries'], ['Short Films'], ['Animation'], ['Film Clubs']]],
  ['Food & Drink', [['Wine Tasting'], ['Craft Beer'], ['Cooking Classes', [['Baking'], ['Vegan Cooking']]], ['Street Food'], ['Farmers Markets']]],
  ['Family', [['Kids'], ['Teens'], ['Parenting'], ['Storytime']]],
  ['Education', [['Lectures'], ['Languages'], ['Science Talks'], ['History Talks'], ['Book Clubs']]],
  ['Technology', [['Programming'], ['Startups'], ['Robotics'], ['AI & Data'], ['Hackathons']]],
  ['Business', [['Networking'], ['Careers'], ['Marketing'], ['Finance']]],
  ['Health & Wellness', [['Yoga'], ['Meditation'], ['Running'], ['Nutrition'], ['Mental Health']]],
  ['Sports', [['Football'], ['Cycling'], ['Swimming'], ['Climbing'], ['Tennis'], ['Chess']]],
  ['Outdoors', [['Hiking'], ['Birdwatching'], ['Gardening'], ['Camping'], ['Sailing']]],
  ['Neighbourhood', [['Volunteering'], ['Charity'], ['Markets & Fairs'], ['Local Politics']]],
  ['Celebrations', [['Holidays'], ['Parades'], ['Cultural Celebrations'], ['Fireworks']]],
  ['Literature', [['Poetry'], ['Author Readings'], ['Writing Groups']]],
  ['Science', [['Astronomy'], ['Nature'], ['Museum Nights']]],
  ['Travel', [['City Tours'], ['Walking Tours'], ['Day Trips']]],
  ['Games', [['Board Games'], ['Video Games'], ['Trivia Nights'], ['Esports']]],
  ['Crafts', [['Knitting'], ['Woodworking'], ['Jewellery Making'], ['Sewing']]],
  ['Faith & Spirit', [['Services'], ['Retreats'], ['Faith Talks']]],
];

export const TAG_WORDS = [
  'outdoor',
  'indoor',
  'free entry',
  'kids',
  'family friendly',
  'wheelchair accessible',
  'evening',
  'weekend',
  'live music',
  'hands-on',
  'beginner friendly',
  'members only',
  'registration required',
  'online',
  'hybrid',
  'dog friendly',
  'all ages',
  '18+',
  'vegan',
  'seasonal',
  'charity',
  'networking',
  'students',
  'seniors',
  'bilingual',
  'drop-in',
  'ticketed',
  'selling fast',
  'new',
  'popular',
  'recurring',
  'one-off',
  'premiere',
  'guest speaker',
  'local',
  'international',
  'quiet',
  'late night',
  'morning',
  'lunchtime',
  'rain or shine',
  'bring a friend',
  'certificate',
  'sign language',
  'relaxed performance',
  'no phones',
  'dress code',
  'potluck',
];

// ---- costs, as the events store them (a JSON array of the strings given)

export const COSTS: [string[], number][] = [
  [[], 25],
  [['Free'], 15],
  [['$10'], 8],
  [['$25'], 6],
  [['$5'], 4],
  [['€5 - €20'], 8],
  [['€12'], 5],
  [['10€'], 4],
  [['£8'], 4],
  [['0', '$15'], 5],
  [['$10', '$25'], 6],
  [['Donation'], 3],
  [['¥1,500'], 3],
  [['$12.50'], 4],
];
